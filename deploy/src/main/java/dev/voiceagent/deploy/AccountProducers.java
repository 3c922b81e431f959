package dev.voiceagent.deploy;

import dev.voiceagent.application.model.ManagedModels;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * Organization and account: model configurations (and the installation's managed models), tracing
 * credentials, onboarding, the organization context and service keys. Each service is produced once; its
 * bean types are the use-case interfaces it implements.
 */
@ApplicationScoped
public class AccountProducers {

    @Produces
    @Singleton
    ManagedModels managedModels(VoiceAgentConfig config) {
        VoiceAgentConfig.ManagedModelsConfig m = config.managedModels();
        return m.baseUrl().filter(u -> !u.isBlank())
                .map(u -> new ManagedModels(u, m.apiKey().orElse(null), m.llmModel(), m.ttsModel(), m.ttsVoice(),
                        m.sttModel(), m.embeddingsModel()))
                .orElse(ManagedModels.none());
    }
}
