package dev.voiceagent.deploy;

import dev.voiceagent.application.conversation.ConversationModels;
import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.conversation.TextChatRepository;
import dev.voiceagent.application.conversation.TextChatService;
import dev.voiceagent.application.model.ModelConfigurations;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;

/** Conversations: the language model an organization's agents talk through, and text chat. */
@ApplicationScoped
public class ConversationProducers {

    @Produces
    @Singleton
    ConversationModels conversationModels(ModelConfigurations configurations, VoiceAgentConfig config) {
        return new ConversationModels(configurations, config.models().fallbackLlm().orElse(null));
    }

    /**
     * How the voice runtime hears the caller speak where Silero VAD is left out (the native image): by energy.
     * Everywhere else adapters/vad's Silero detector replaces it.
     */
    @Produces
    @Singleton
    @io.quarkus.arc.DefaultBean
    dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector voiceActivity() {
        return new dev.voiceagent.application.voice.runtime.EnergyVoiceActivityDetector();
    }

    @Produces
    @Singleton
    TextChatService textChat(TextChatRepository chats, WorkflowRepository workflows, WorkflowRunRepository runs,
            ConversationModels models, LanguageModel languageModel, dev.voiceagent.application.storage.ObjectStore objects,
            dev.voiceagent.application.conversation.ConversationTools tools, Clock clock,
            dev.voiceagent.application.usage.CreditGate credits) {
        // bean types: the text chat use cases (create, get, send, end, rewind, close idle)
        return new TextChatService(chats, workflows, runs, models, languageModel, objects, tools, clock,
                ThreadLocalRandom.current(), credits);
    }

    @Produces
    @Singleton
    dev.voiceagent.application.embed.EmbedService embeds(dev.voiceagent.application.embed.EmbedRepository embeds,
            WorkflowRepository workflows, WorkflowRunRepository runs, TextChatService chats,
            dev.voiceagent.application.turn.TurnCredentialsService turn, java.security.SecureRandom random,
            Clock clock) {
        // bean types: the embed use cases (token, init, config, session, preflight)
        return new dev.voiceagent.application.embed.EmbedService(embeds, workflows, runs, chats, turn,
                new dev.voiceagent.application.embed.RateLimiter(clock), random, clock);
    }

    @Produces
    @Singleton
    dev.voiceagent.application.workflow.CloseAbandonedRunsUseCase abandonedRuns(WorkflowRunRepository runs, Clock clock,
            VoiceAgentConfig config) {
        return new dev.voiceagent.application.workflow.CloseAbandonedRunsService(runs, clock,
                config.runs().abandonAfter());
    }
}
