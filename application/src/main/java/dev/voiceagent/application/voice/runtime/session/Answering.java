package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.conversation.ConversationModels;
import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.conversation.ToolRunner;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.RecordedPrompts;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.conversation.AgentEngine;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.function.Function;

/**
 * How a pipeline call's agent answers: its engine, the language models that write its words (the configured one, then
 * its fallbacks), its tools, its voices (likewise; the session opens one with its listener) and the organization's
 * recordings in the call's format.
 */
public record Answering(AgentEngine engine, LanguageModel model, List<ModelEndpoint> llms, ToolRunner tools,
        List<Voice> voices, Function<String, Uni<RecordedPrompts.Prompt>> prompts) {

    /** One text-to-speech provider, named as usage names it (provider/model). */
    public record Voice(String key, Function<TextToSpeech.Listener, TextToSpeech.Stream> open) {
    }

    public Answering {
        if (llms.isEmpty() || voices.isEmpty()) {
            throw new IllegalArgumentException("a call needs a language model and a voice");
        }
        llms = List.copyOf(llms);
        voices = List.copyOf(voices);
    }

    /** One language model and one voice, no fallbacks. */
    public Answering(AgentEngine engine, LanguageModel model, ModelEndpoint llm, ToolRunner tools,
            Function<TextToSpeech.Listener, TextToSpeech.Stream> voice,
            Function<String, Uni<RecordedPrompts.Prompt>> prompts) {
        this(engine, model, List.of(llm), tools, List.of(new Voice("tts", voice)), prompts);
    }

    /** The configured language model (the voicemail screen's, unless the workflow names its own). */
    public ModelEndpoint llm() {
        return llms.getFirst();
    }

    /** How usage names a language model. */
    static String key(ModelEndpoint llm) {
        return ConversationModels.key(llm);
    }
}
