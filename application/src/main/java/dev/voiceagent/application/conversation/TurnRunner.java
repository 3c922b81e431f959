package dev.voiceagent.application.conversation;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.AgentEngine.Step;
import dev.voiceagent.domain.conversation.AgentEngine.TurnResult;
import io.smallrye.mutiny.Uni;

/** Runs one engine turn to its end, asking the language model whenever the engine says so. */
public final class TurnRunner {

    private TurnRunner() {
    }

    /** A turn whose tool calls are all answered as not available (no tools). */
    public static Uni<TurnResult> run(AgentEngine.Turn turn, LanguageModel model, ModelEndpoint endpoint) {
        return run(turn, model, endpoint, ToolRunner.NONE);
    }

    public static Uni<TurnResult> run(AgentEngine.Turn turn, LanguageModel model, ModelEndpoint endpoint,
            ToolRunner tools) {
        return Uni.createFrom().deferred(() -> {
            Step step = turn.next();
            return switch (step) {
                case Step.Finished done -> Uni.createFrom().item(done.result());
                case Step.AskModel ask -> model.complete(endpoint, ask.request())
                        .invoke(turn::accept)
                        .chain(() -> run(turn, model, endpoint, tools));
                case Step.RunTool tool -> tools.run(turn, tool).chain(() -> run(turn, model, endpoint, tools));
            };
        });
    }
}
