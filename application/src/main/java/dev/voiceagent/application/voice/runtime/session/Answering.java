package dev.voiceagent.application.voice.runtime.session;

import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.conversation.ToolRunner;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.RecordedPrompts;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.conversation.AgentEngine;
import io.smallrye.mutiny.Uni;
import java.util.function.Function;

/**
 * How a pipeline call's agent answers: its engine, the language model that writes its words, its tools, its voice (the
 * session opens it with its listener) and the organization's recordings in the call's format.
 */
public record Answering(AgentEngine engine, LanguageModel model, ModelEndpoint llm, ToolRunner tools,
        Function<TextToSpeech.Listener, TextToSpeech.Stream> voice,
        Function<String, Uni<RecordedPrompts.Prompt>> prompts) {
}
