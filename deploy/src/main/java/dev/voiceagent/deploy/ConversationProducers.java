package dev.voiceagent.deploy;

import dev.voiceagent.application.conversation.ConversationModels;
import dev.voiceagent.application.conversation.ConversationTools;
import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.conversation.TextChatRepository;
import dev.voiceagent.application.conversation.TextChatService;
import dev.voiceagent.application.trace.RunTracing;
import dev.voiceagent.application.embed.EmbedRepository;
import dev.voiceagent.application.embed.EmbedService;
import dev.voiceagent.application.embed.RateLimiter;
import dev.voiceagent.application.model.ModelConfigurations;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.turn.TurnCredentialsService;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.voice.runtime.EnergyVoiceActivityDetector;
import dev.voiceagent.application.voice.runtime.port.out.VoiceActivityDetector;
import dev.voiceagent.application.workflow.CloseAbandonedRunsService;
import dev.voiceagent.application.workflow.CloseAbandonedRunsUseCase;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.security.SecureRandom;
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
    @DefaultBean
    VoiceActivityDetector voiceActivity() {
        return new EnergyVoiceActivityDetector();
    }

    @Produces
    @Singleton
    TextChatService textChat(TextChatRepository chats, WorkflowRepository workflows, WorkflowRunRepository runs,
            ConversationModels models, LanguageModel languageModel, ObjectStore objects,
            ConversationTools tools, Clock clock, CreditGate credits, RunTracing tracing) {
        // bean types: the text chat use cases (create, get, send, end, rewind, close idle)
        return new TextChatService(chats, workflows, runs, models, languageModel, objects, tools, clock,
                ThreadLocalRandom.current(), credits, tracing);
    }

    @Produces
    @Singleton
    EmbedService embeds(EmbedRepository embeds,
            WorkflowRepository workflows, WorkflowRunRepository runs, TextChatService chats,
            TurnCredentialsService turn, SecureRandom random, Clock clock) {
        // bean types: the embed use cases (token, init, config, session, preflight)
        return new EmbedService(embeds, workflows, runs, chats, turn, new RateLimiter(clock), random, clock);
    }

    @Produces
    @Singleton
    CloseAbandonedRunsUseCase abandonedRuns(WorkflowRunRepository runs, Clock clock, VoiceAgentConfig config) {
        return new CloseAbandonedRunsService(runs, clock, config.runs().abandonAfter());
    }
}
