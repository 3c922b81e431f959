package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.WorkflowRun;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a conversation's turns mean for its run: the values gathered, the tokens used per model (the
 * reference's usage_info {llm: {"provider/model": {prompt_tokens, completion_tokens, total_tokens}}}), and,
 * once it ends, the run completed with its disposition, tags and duration.
 */
public final class ChatRuns {

    /** The user ended the chat (the reference's EndTaskReason.USER_HANGUP). */
    public static final String USER_HANGUP = "user_hangup";
    /** Nobody wrote for the workflow's inactivity timeout. */
    public static final String INACTIVITY_TIMEOUT = "user_idle_timeout";

    private ChatRuns() {
    }

    /** The run after a turn: gathered values and tokens added; completed if the turn ended the conversation. */
    public static WorkflowRun afterTurn(WorkflowRun run, ConversationState state, TokenUsage usage, String modelKey,
            Instant now) {
        Map<String, Object> gathered = new LinkedHashMap<>(run.gatheredContext() == null ? Map.of()
                : run.gatheredContext());
        gathered.putAll(state.gathered());
        WorkflowRun updated = run.withState("running", false).withUsage(usageWith(run.usageInfo(), modelKey, usage))
                .withGathered(gathered);
        return state.ended() ? completed(updated, state.endReason(), now) : updated;
    }

    /** The run with {@code usage} tokens more counted to the model {@code modelKey} (a call's fallback model). */
    public static WorkflowRun withTokens(WorkflowRun run, String modelKey, TokenUsage usage) {
        return run.withUsage(usageWith(run.usageInfo(), modelKey, usage));
    }

    /**
     * The run with its conversation as feedback events (logs.realtime_feedback_events, what the run page shows), from
     * the chat's active turns.
     */
    public static WorkflowRun withFeedback(WorkflowRun r, List<ChatTurn> turns) {
        Map<String, Object> logs = new LinkedHashMap<>(r.logs() == null ? Map.of() : r.logs());
        logs.put(FeedbackEvents.KEY, FeedbackEvents.of(turns));
        return r.withLogs(logs);
    }

    /** The run completed: its disposition, the tags (the disposition and extracted tag_* values), the duration. */
    public static WorkflowRun completed(WorkflowRun run, String disposition, Instant now) {
        Map<String, Object> gathered = new LinkedHashMap<>(run.gatheredContext() == null ? Map.of()
                : run.gatheredContext());
        List<Object> tags = new ArrayList<>();
        if (JsonTree.asList(gathered.get("call_tags")) instanceof List<?> existing) {
            tags.addAll(existing);
        }
        if (!tags.contains(disposition)) {
            tags.add(disposition);
        }
        gathered.forEach((key, value) -> {
            if (key.startsWith("tag_") && value instanceof String tag && !tag.isBlank() && !tags.contains(tag)) {
                tags.add(tag);
            }
        });
        gathered.put("call_disposition", disposition);
        gathered.put("mapped_call_disposition", disposition);
        gathered.put("call_status", disposition);
        gathered.put("call_tags", tags);
        Map<String, Object> usage = new LinkedHashMap<>(run.usageInfo() == null ? Map.of() : run.usageInfo());
        double seconds = Math.max(0, Duration.between(run.createdAt(), now).toMillis() / 1000.0);
        usage.put("call_duration_seconds", seconds);
        return run.withState("completed", true).withUsage(usage).withGathered(gathered);
    }

    /** {@code existing} usage_info with {@code usage} added to llm[modelKey]'s prompt, completion and total tokens. */
    public static Map<String, Object> usageWith(Map<String, Object> existing, String modelKey, TokenUsage usage) {
        Map<String, Object> out = new LinkedHashMap<>(existing == null ? Map.of() : existing);
        if (usage == null || usage.equals(TokenUsage.ZERO)) {
            return out;
        }
        Map<String, Object> llm = new LinkedHashMap<>(JsonTree.asMap(out.get("llm")) == null ? Map.of()
                : JsonTree.asMap(out.get("llm")));
        Map<String, Object> current = JsonTree.asMap(llm.get(modelKey));
        long prompt = usage.promptTokens() + number(current, "prompt_tokens");
        long completion = usage.completionTokens() + number(current, "completion_tokens");
        long total = usage.totalTokens() + number(current, "total_tokens");
        llm.put(modelKey, new TokenUsage(prompt, completion, total).toMap());
        out.put("llm", llm);
        return out;
    }

    private static long number(Map<String, Object> map, String key) {
        return map != null && map.get(key) instanceof Number n ? n.longValue() : 0;
    }
}
