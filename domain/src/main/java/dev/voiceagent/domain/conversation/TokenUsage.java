package dev.voiceagent.domain.conversation;

import java.util.LinkedHashMap;
import java.util.Map;

/** Tokens a model call used, as the provider reports them. */
public record TokenUsage(long promptTokens, long completionTokens, long totalTokens) {

    public static final TokenUsage ZERO = new TokenUsage(0, 0, 0);

    public TokenUsage plus(TokenUsage other) {
        return other == null ? this : new TokenUsage(promptTokens + other.promptTokens,
                completionTokens + other.completionTokens, totalTokens + other.totalTokens);
    }

    /** This usage without {@code other}'s part (never below zero). */
    public TokenUsage minus(TokenUsage other) {
        return other == null ? this : new TokenUsage(Math.max(0, promptTokens - other.promptTokens),
                Math.max(0, completionTokens - other.completionTokens), Math.max(0, totalTokens - other.totalTokens));
    }

    public Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("prompt_tokens", promptTokens);
        out.put("completion_tokens", completionTokens);
        out.put("total_tokens", totalTokens);
        return out;
    }
}
