package dev.voiceagent.adapters.outbound;

import dev.voiceagent.application.conversation.LanguageModel;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.ModelRequest;
import dev.voiceagent.application.conversation.ModelDelta;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/** The language model port: the simulator for provider "simulator", the chat completions protocol otherwise. */
@ApplicationScoped
public class LanguageModels implements LanguageModel {

    public static final String SIMULATOR = "simulator";

    private final ChatCompletions chat;
    private final SimulatorLanguageModel simulator;

    public LanguageModels(ChatCompletions chat, SimulatorLanguageModel simulator) {
        this.chat = chat;
        this.simulator = simulator;
    }

    @Override
    public Uni<ModelReply> complete(ModelEndpoint endpoint, ModelRequest request) {
        if (SIMULATOR.equals(endpoint.provider())) {
            return Uni.createFrom().item(() -> simulator.complete(request));
        }
        return Uni.createFrom().deferred(() -> chat.complete(endpoint, request));
    }

    /** Streamed from every provider text chat speaks to; the simulator answers in one piece. */
    @Override
    public Multi<ModelDelta> stream(ModelEndpoint endpoint, ModelRequest request) {
        if (SIMULATOR.equals(endpoint.provider())) {
            return LanguageModel.super.stream(endpoint, request);
        }
        return chat.stream(endpoint, request);
    }
}
