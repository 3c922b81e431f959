package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.workflow.JsonTree;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Where a conversation stands between turns: the current node, the messages so far (without the system
 * prompt, which is composed afresh for the current node), the values gathered, how many times the user
 * has spoken, and whether it has ended (and why). Stored as the checkpoint after each turn, so a rewind
 * resumes from any earlier one.
 */
public record ConversationState(String currentNodeId, List<ChatMessage> messages, Map<String, Object> gathered,
        int userTurns, boolean ended, String endReason) {

    static final int VERSION = 1;

    public ConversationState {
        messages = List.copyOf(messages);
        gathered = gathered == null ? Map.of() : JsonTree.asMap(JsonTree.freeze(gathered));
    }

    /**
     * The state after the caller interrupted the agent: the last assistant message keeps only {@code heard} (what
     * the caller heard of it); a message of which nothing was heard is dropped unless it called functions (their
     * results stay answered), then its text is emptied.
     */
    public ConversationState interrupted(String heard) {
        String kept = heard == null || heard.isBlank() ? null : heard.strip();
        List<ChatMessage> out = new ArrayList<>(messages);
        for (int i = out.size() - 1; i >= 0; i--) {
            ChatMessage m = out.get(i);
            if (m.role() == ChatMessage.Role.ASSISTANT && m.content() != null) {
                if (kept == null && m.toolCalls().isEmpty()) {
                    out.remove(i);
                } else {
                    out.set(i, ChatMessage.assistant(kept, m.toolCalls()));
                }
                break;
            }
        }
        return new ConversationState(currentNodeId, out, gathered, userTurns, ended, endReason);
    }

    /**
     * The state after a turn cut short before it finished: what the caller said, and what it heard of the agent's
     * answer, when it heard anything; nothing the unfinished turn decided (transitions, tools, extraction) applies.
     */
    public ConversationState cutShort(String userText, String heard) {
        List<ChatMessage> out = new ArrayList<>(messages);
        int turns = userTurns;
        if (userText != null && !userText.isBlank()) {
            out.add(ChatMessage.user(userText));
            turns++;
        }
        if (heard != null && !heard.isBlank()) {
            out.add(ChatMessage.assistant(heard.strip(), List.of()));
        }
        return new ConversationState(currentNodeId, out, gathered, turns, ended, endReason);
    }

    /**
     * The caller's words of a turn, known after the turn was answered (a speech-to-speech model answers the audio and
     * transcribes it on the side): the user message at {@code index} says {@code userText}. Anything else, or an index
     * past the messages, leaves the state as it is.
     */
    public ConversationState withUserText(int index, String userText) {
        if (index < 0 || index >= messages.size() || messages.get(index).role() != ChatMessage.Role.USER
                || userText == null || userText.isBlank()) {
            return this;
        }
        List<ChatMessage> out = new ArrayList<>(messages);
        out.set(index, ChatMessage.user(userText.strip()));
        return new ConversationState(currentNodeId, out, gathered, userTurns, ended, endReason);
    }

    /** The checkpoint document: {version, current_node_id, messages, gathered_context, user_turns, ended, end_reason}. */
    public Map<String, Object> toMap() {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("version", VERSION);
        out.put("current_node_id", currentNodeId);
        out.put("messages", messages.stream().map(ChatMessage::toMap).toList());
        out.put("gathered_context", gathered);
        out.put("user_turns", userTurns);
        out.put("ended", ended);
        out.put("end_reason", endReason);
        return out;
    }

    public static ConversationState fromMap(Map<String, Object> map) {
        List<ChatMessage> messages = new ArrayList<>();
        List<?> raw = JsonTree.asList(map.get("messages"));
        if (raw != null) {
            raw.forEach(m -> messages.add(ChatMessage.fromMap(JsonTree.asMap(m))));
        }
        Map<String, Object> gathered = JsonTree.asMap(map.get("gathered_context"));
        return new ConversationState(JsonTree.asString(map.get("current_node_id")), messages,
                gathered == null ? new LinkedHashMap<>() : gathered,
                map.get("user_turns") instanceof Number n ? n.intValue() : 0,
                Boolean.TRUE.equals(map.get("ended")), JsonTree.asString(map.get("end_reason")));
    }
}
