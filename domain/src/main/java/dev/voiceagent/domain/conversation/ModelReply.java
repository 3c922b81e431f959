package dev.voiceagent.domain.conversation;

import java.util.List;

/** What the model answered: text, function calls, or both, and the tokens it used. */
public record ModelReply(String text, List<ToolCall> toolCalls, TokenUsage usage) {

    public ModelReply {
        toolCalls = toolCalls == null ? List.of() : List.copyOf(toolCalls);
        usage = usage == null ? TokenUsage.ZERO : usage;
    }

    public static ModelReply text(String text) {
        return new ModelReply(text, List.of(), TokenUsage.ZERO);
    }

    public static ModelReply calls(ToolCall... calls) {
        return new ModelReply(null, List.of(calls), TokenUsage.ZERO);
    }
}
