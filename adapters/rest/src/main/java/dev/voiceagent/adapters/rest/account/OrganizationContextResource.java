package dev.voiceagent.adapters.rest.account;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.account.GetOrganizationContextUseCase;
import dev.voiceagent.application.account.OrganizationContext;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The caller's organization and what it has set up, read by a dashboard on every page load. */
@Path("/api/v1/organizations/context")
public class OrganizationContextResource {

    public record OrganizationModelServicesContext(
            @Schema(enumeration = {"organization_v2", "legacy_user_v1", "empty"}) String configSource,
            boolean hasModelConfigurationV2, @Schema(nullable = true) Integer managedServiceVersion,
            boolean usesManagedServiceV2) {
    }

    @Schema(description = "What the caller works in and on")
    public record UserContext(long id, @Schema(nullable = true) String email) {
    }

    @Schema(description = "What is set up: telephony ready for outbound calls, configurations, active API keys")
    public record SetupContext(boolean telephonyReadyForOutbound, int telephonyConfigurations,
            boolean modelConfigurationPresent, int activeApiKeys) {
    }

    public record OrganizationContextResponse(@Schema(nullable = true) Long organizationId,
            @Schema(nullable = true) String organizationProviderId, OrganizationModelServicesContext modelServices,
            UserContext user, SetupContext setup) {

        static OrganizationContextResponse of(OrganizationContext c) {
            return new OrganizationContextResponse(c.organizationId(), c.organizationProviderId(),
                    new OrganizationModelServicesContext(c.modelSource(), c.modelConfigurationV2(),
                            c.managedModels() ? 2 : null, c.managedModels()),
                    new UserContext(c.userId(), c.email()),
                    new SetupContext(c.telephonyReadyForOutbound(), c.telephonyConfigurations(),
                            !"empty".equals(c.modelSource()), c.activeApiKeys()));
        }
    }

    private final GetOrganizationContextUseCase context;
    private final Caller caller;

    public OrganizationContextResource(GetOrganizationContextUseCase context, Caller caller) {
        this.context = context;
        this.caller = caller;
    }

    @GET
    @Operation(summary = "Get Current Organization Context", description = "The organization's ids, where its models"
            + " come from (config_source; managed models in use), the caller, and what is set up")
    public Uni<OrganizationContextResponse> context() {
        return context.context(caller.principal()).map(OrganizationContextResponse::of);
    }
}
