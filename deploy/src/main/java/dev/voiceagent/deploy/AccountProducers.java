package dev.voiceagent.deploy;

import dev.voiceagent.application.account.GetOrganizationContextService;
import dev.voiceagent.application.account.OnboardingStateRepository;
import dev.voiceagent.application.account.OnboardingStateService;
import dev.voiceagent.application.apikey.ApiKeyRepository;
import dev.voiceagent.application.auth.AccountRepository;
import dev.voiceagent.application.model.GetModelConfigurationService;
import dev.voiceagent.application.model.ListVoicesService;
import dev.voiceagent.application.model.ManagedModels;
import dev.voiceagent.application.model.ModelConfigurationRepository;
import dev.voiceagent.application.model.ModelConfigurations;
import dev.voiceagent.application.model.ModelConfigurationsService;
import dev.voiceagent.application.model.ModelMigrationService;
import dev.voiceagent.application.model.ModelProviderCheck;
import dev.voiceagent.application.model.SaveModelConfigurationService;
import dev.voiceagent.application.model.UserConfigurationService;
import dev.voiceagent.application.model.ValidateModelConfigurationService;
import dev.voiceagent.application.model.VoiceCatalog;
import dev.voiceagent.application.organization.OrganizationPreferencesRepository;
import dev.voiceagent.application.organization.TracingCredentialsRepository;
import dev.voiceagent.application.organization.TracingCredentialsService;
import dev.voiceagent.application.servicekey.ServiceKeyRepository;
import dev.voiceagent.application.servicekey.ServiceKeyService;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Organization and account: model configurations (and the installation's managed models), tracing
 * credentials, onboarding, the organization context and service keys. Each service is produced once; its
 * bean types are the use-case interfaces it implements.
 */
@ApplicationScoped
public class AccountProducers {

    @Produces
    @Singleton
    ManagedModels managedModels(@ConfigProperty(name = "voiceagent.managed-models.base-url") Optional<String> baseUrl,
            @ConfigProperty(name = "voiceagent.managed-models.api-key") Optional<String> apiKey,
            @ConfigProperty(name = "voiceagent.managed-models.llm-model", defaultValue = "gpt-4.1-mini") String llm,
            @ConfigProperty(name = "voiceagent.managed-models.tts-model", defaultValue = "gpt-4o-mini-tts") String tts,
            @ConfigProperty(name = "voiceagent.managed-models.tts-voice", defaultValue = "alloy") String voice,
            @ConfigProperty(name = "voiceagent.managed-models.stt-model", defaultValue = "gpt-4o-mini-transcribe")
            String stt,
            @ConfigProperty(name = "voiceagent.managed-models.embeddings-model", defaultValue = "text-embedding-3-small")
            String embeddings) {
        return baseUrl.filter(u -> !u.isBlank())
                .map(u -> new ManagedModels(u, apiKey.orElse(null), llm, tts, voice, stt, embeddings))
                .orElse(ManagedModels.none());
    }

    @Produces
    @Singleton
    ModelConfigurations modelConfigurations(ModelConfigurationRepository repository, ManagedModels managed) {
        return new ModelConfigurationsService(repository, managed);
    }

    @Produces
    @Singleton
    GetModelConfigurationService getModelConfiguration(ModelConfigurations configurations) {
        return new GetModelConfigurationService(configurations);
    }

    @Produces
    @Singleton
    SaveModelConfigurationService saveModelConfiguration(ModelConfigurationRepository repository,
            ModelConfigurations configurations, Clock clock) {
        return new SaveModelConfigurationService(repository, configurations, clock);
    }

    @Produces
    @Singleton
    ModelMigrationService modelMigration(ModelConfigurationRepository repository, ModelConfigurations configurations,
            Clock clock) {
        // bean types: PreviewModelMigrationUseCase and MigrateModelConfigurationUseCase
        return new ModelMigrationService(repository, configurations, clock);
    }

    @Produces
    @Singleton
    UserConfigurationService userConfiguration(ModelConfigurationRepository repository,
            ModelConfigurations configurations, OrganizationPreferencesRepository preferences, Clock clock) {
        // bean types: GetUserConfigurationUseCase and UpdateUserConfigurationUseCase
        return new UserConfigurationService(repository, configurations, preferences, clock);
    }

    @Produces
    @Singleton
    ValidateModelConfigurationService validateModelConfiguration(ModelConfigurations configurations,
            ModelProviderCheck checks, Clock clock) {
        return new ValidateModelConfigurationService(configurations, checks, clock);
    }

    @Produces
    @Singleton
    ListVoicesService listVoices(ModelConfigurations configurations, VoiceCatalog catalog, Clock clock) {
        return new ListVoicesService(configurations, catalog, clock);
    }

    @Produces
    @Singleton
    TracingCredentialsService tracingCredentials(TracingCredentialsRepository repository) {
        return new TracingCredentialsService(repository);
    }

    @Produces
    @Singleton
    OnboardingStateService onboardingState(OnboardingStateRepository repository) {
        return new OnboardingStateService(repository);
    }

    @Produces
    @Singleton
    GetOrganizationContextService organizationContext(AccountRepository accounts, ModelConfigurations models,
            TelephonyConfigurationRepository telephony, ApiKeyRepository apiKeys) {
        return new GetOrganizationContextService(accounts, models, telephony, apiKeys);
    }

    @Produces
    @Singleton
    ServiceKeyService serviceKeys(ServiceKeyRepository keys, SecureRandom random, Clock clock) {
        return new ServiceKeyService(keys, random, clock);
    }
}
