package dev.voiceagent.application.conversation;

import dev.voiceagent.domain.conversation.AgentEngine;
import io.smallrye.mutiny.Uni;

/** Runs the tool a turn asked for and gives the turn its result (a tool's failure is a result, not a failure). */
public interface ToolRunner {

    /** No tools: every call is answered as not available. */
    ToolRunner NONE = (turn, step) -> {
        turn.acceptToolResult(step.call().id(), "The tool " + step.call().name() + " is not available");
        return Uni.createFrom().voidItem();
    };

    Uni<Void> run(AgentEngine.Turn turn, AgentEngine.Step.RunTool step);
}
