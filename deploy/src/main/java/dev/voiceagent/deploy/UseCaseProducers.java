package dev.voiceagent.deploy;

import dev.voiceagent.application.apikey.ApiKeyRepository;
import dev.voiceagent.application.apikey.ArchiveApiKeyService;
import dev.voiceagent.application.apikey.ArchiveApiKeyUseCase;
import dev.voiceagent.application.apikey.CreateApiKeyService;
import dev.voiceagent.application.apikey.CreateApiKeyUseCase;
import dev.voiceagent.application.apikey.ListApiKeysService;
import dev.voiceagent.application.apikey.ListApiKeysUseCase;
import dev.voiceagent.application.apikey.ReactivateApiKeyService;
import dev.voiceagent.application.apikey.ReactivateApiKeyUseCase;
import dev.voiceagent.application.auth.AccountRepository;
import dev.voiceagent.application.auth.AuthenticateService;
import dev.voiceagent.application.auth.AuthenticateUseCase;
import dev.voiceagent.application.auth.GetCurrentUserService;
import dev.voiceagent.application.auth.GetCurrentUserUseCase;
import dev.voiceagent.application.auth.LogInService;
import dev.voiceagent.application.auth.LogInUseCase;
import dev.voiceagent.application.auth.PasswordHasher;
import dev.voiceagent.application.auth.SignUpService;
import dev.voiceagent.application.auth.SignUpUseCase;
import dev.voiceagent.application.auth.TokenService;
import dev.voiceagent.application.campaign.CampaignRepository;
import dev.voiceagent.application.campaign.GetCampaignService;
import dev.voiceagent.application.campaign.GetCampaignUseCase;
import dev.voiceagent.application.campaign.FoldCampaignTalliesService;
import dev.voiceagent.application.campaign.FoldCampaignTalliesUseCase;
import dev.voiceagent.application.campaign.ListCampaignsService;
import dev.voiceagent.application.campaign.ListCampaignsUseCase;
import dev.voiceagent.application.organization.GetOrganizationPreferencesService;
import dev.voiceagent.application.organization.GetOrganizationPreferencesUseCase;
import dev.voiceagent.application.organization.OrganizationPreferencesRepository;
import dev.voiceagent.application.organization.UpdateOrganizationPreferencesService;
import dev.voiceagent.application.organization.UpdateOrganizationPreferencesUseCase;
import dev.voiceagent.application.shared.UnitOfWork;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.security.SecureRandom;
import java.time.Clock;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/** The composition root: use-case services are plain classes, created here from their ports. */
@ApplicationScoped
public class UseCaseProducers {

    @Produces
    @Singleton
    dev.voiceagent.application.idempotency.IdempotentRequestsService idempotentRequests(
            dev.voiceagent.application.idempotency.IdempotencyRepository repository, Clock clock) {
        // bean types: RunIdempotentlyUseCase and PurgeIdempotencyKeysUseCase
        return new dev.voiceagent.application.idempotency.IdempotentRequestsService(repository, clock);
    }

    @Produces
    @Singleton
    Clock clock() {
        // microsecond ticks: what PostgreSQL stores, so a value reads back exactly as it was returned
        return Clock.tick(Clock.systemUTC(), java.time.Duration.ofNanos(1_000));
    }

    @Produces
    @Singleton
    SecureRandom secureRandom() {
        return new SecureRandom();
    }

    @Produces
    @Singleton
    SignUpUseCase signUp(AccountRepository accounts, PasswordHasher hasher, TokenService tokens, UnitOfWork unitOfWork,
            Clock clock, @ConfigProperty(name = "voiceagent.auth.signup-enabled", defaultValue = "true") boolean enabled,
            dev.voiceagent.application.usage.CreditLedger credits,
            @ConfigProperty(name = "voiceagent.credits.initial-grant", defaultValue = "0") long initialGrant) {
        return new SignUpService(accounts, hasher, tokens, unitOfWork, clock, enabled, credits, initialGrant);
    }

    @Produces
    @Singleton
    LogInUseCase logIn(AccountRepository accounts, PasswordHasher hasher, TokenService tokens, Clock clock) {
        return new LogInService(accounts, hasher, tokens, clock);
    }

    @Produces
    @Singleton
    AuthenticateUseCase authenticate(ApiKeyRepository apiKeys,
            dev.voiceagent.application.servicekey.ServiceKeyRepository serviceKeys, AccountRepository accounts,
            TokenService tokens, Clock clock) {
        return new AuthenticateService(apiKeys, serviceKeys, accounts, tokens, clock);
    }

    @Produces
    @Singleton
    GetCurrentUserUseCase currentUser(AccountRepository accounts) {
        return new GetCurrentUserService(accounts);
    }

    @Produces
    @Singleton
    CreateApiKeyUseCase createApiKey(ApiKeyRepository apiKeys, SecureRandom random, Clock clock) {
        return new CreateApiKeyService(apiKeys, random, clock);
    }

    @Produces
    @Singleton
    ListApiKeysUseCase listApiKeys(ApiKeyRepository apiKeys) {
        return new ListApiKeysService(apiKeys);
    }

    @Produces
    @Singleton
    ArchiveApiKeyUseCase archiveApiKey(ApiKeyRepository apiKeys, Clock clock) {
        return new ArchiveApiKeyService(apiKeys, clock);
    }

    @Produces
    @Singleton
    ReactivateApiKeyUseCase reactivateApiKey(ApiKeyRepository apiKeys) {
        return new ReactivateApiKeyService(apiKeys);
    }

    @Produces
    @Singleton
    GetOrganizationPreferencesUseCase getPreferences(OrganizationPreferencesRepository preferences) {
        return new GetOrganizationPreferencesService(preferences);
    }

    @Produces
    @Singleton
    UpdateOrganizationPreferencesUseCase updatePreferences(OrganizationPreferencesRepository preferences) {
        return new UpdateOrganizationPreferencesService(preferences);
    }

    @Produces
    @Singleton
    ListCampaignsUseCase listCampaigns(CampaignRepository campaigns) {
        return new ListCampaignsService(campaigns);
    }

    @Produces
    @Singleton
    FoldCampaignTalliesUseCase foldCampaignTallies(CampaignRepository campaigns) {
        return new FoldCampaignTalliesService(campaigns);
    }

    @Produces
    @Singleton
    GetCampaignUseCase getCampaign(CampaignRepository campaigns) {
        return new GetCampaignService(campaigns);
    }
}
