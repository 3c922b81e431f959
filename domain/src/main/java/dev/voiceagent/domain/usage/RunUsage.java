package dev.voiceagent.domain.usage;

import dev.voiceagent.domain.workflow.JsonTree;
import java.util.Map;
import java.util.Set;

/**
 * What a finished run used: call seconds and language-model tokens. A telephone call's seconds come from the call
 * ledger (the provider's billed duration); a browser voice session's from the run's own duration, rounded up; a
 * text chat has no call time, only tokens.
 */
public record RunUsage(long callSeconds, long promptTokens, long completionTokens) {

    private static final Set<String> BROWSER_VOICE = Set.of("webrtc", "smallwebrtc");

    public RunUsage {
        if (callSeconds < 0 || promptTokens < 0 || completionTokens < 0) {
            throw new IllegalArgumentException("usage cannot be negative");
        }
    }

    /**
     * @param ledgerSeconds the call ledger's duration when the run had a telephone call, else null
     * @param usageInfo     the run's usage_info ({call_duration_seconds, llm: {"provider/model": {...}}})
     */
    public static RunUsage of(String mode, Integer ledgerSeconds, Map<String, Object> usageInfo) {
        long seconds = 0;
        if (ledgerSeconds != null) {
            seconds = Math.max(0, ledgerSeconds);
        } else if (BROWSER_VOICE.contains(mode) && usageInfo != null
                && usageInfo.get("call_duration_seconds") instanceof Number n && Double.isFinite(n.doubleValue())) {
            seconds = (long) Math.ceil(Math.max(0, n.doubleValue()));
        }
        long prompt = 0;
        long completion = 0;
        Map<String, Object> llm = usageInfo == null ? null : JsonTree.asMap(usageInfo.get("llm"));
        if (llm != null) {
            for (Object perModel : llm.values()) {
                Map<String, Object> counts = JsonTree.asMap(perModel);
                prompt += count(counts, "prompt_tokens");
                completion += count(counts, "completion_tokens");
            }
        }
        return new RunUsage(seconds, prompt, completion);
    }

    private static long count(Map<String, Object> counts, String key) {
        return counts != null && counts.get(key) instanceof Number n ? Math.max(0, n.longValue()) : 0;
    }
}
