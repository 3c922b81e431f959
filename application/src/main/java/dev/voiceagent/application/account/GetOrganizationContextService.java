package dev.voiceagent.application.account;

import jakarta.inject.Singleton;
import dev.voiceagent.application.apikey.ApiKeyRepository;
import dev.voiceagent.application.auth.AccountRepository;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.model.ModelConfigurations;
import dev.voiceagent.application.model.ResolvedModels;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.domain.model.ModelConfigurationDocument;
import io.smallrye.mutiny.Uni;

/** Five reads, concurrent: the organization, the user, the model configuration, telephony and keys. */
@Singleton
public class GetOrganizationContextService implements GetOrganizationContextUseCase {

    private final AccountRepository accounts;
    private final ModelConfigurations models;
    private final TelephonyConfigurationRepository telephony;
    private final ApiKeyRepository apiKeys;

    public GetOrganizationContextService(AccountRepository accounts, ModelConfigurations models,
            TelephonyConfigurationRepository telephony, ApiKeyRepository apiKeys) {
        this.accounts = accounts;
        this.models = models;
        this.telephony = telephony;
        this.apiKeys = apiKeys;
    }

    @Override
    public Uni<OrganizationContext> context(Principal principal) {
        long org = principal.organizationId();
        return accounts.findOrganizationById(org).chain(organization -> accounts.findUserById(principal.userId())
                .chain(user -> apiKeys.listByOrganization(org, false).chain(keys -> Uni.combine().all()
                        .unis(models.resolve(org, principal.userId()), telephony.list(org))
                        .with((resolved, configurations) -> {
                    var o = organization.orElseThrow(() -> new ResourceNotFoundException("Organization not found"));
                    boolean v2 = ResolvedModels.ORGANIZATION_V2.equals(resolved.source());
                    boolean managed = v2 && ModelConfigurationDocument.MANAGED.equals(
                            resolved.organizationConfiguration().get("mode"));
                    return new OrganizationContext(org, o.providerId(), principal.userId(),
                            user.map(u -> u.email().value()).orElse(null), resolved.source(), v2, managed,
                            configurations.stream().anyMatch(c -> c.readyForOutbound()), configurations.size(),
                            keys.size());
                        }))));
    }
}
