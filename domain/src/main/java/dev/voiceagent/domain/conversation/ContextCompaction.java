package dev.voiceagent.domain.conversation;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A long conversation's older turns summarised, so a long call stays within the model's context and its cost
 * ({@code context_compaction_enabled}): once more than {@link #AFTER} messages follow the last summary, the ones before
 * the last {@link #KEEP} (cut where a caller's message begins, so a function call keeps its result) are summarised by the
 * model into a system message placed where they end. The model is asked from the last summary on
 * ({@link #visible}); the messages stay in the conversation, so its transcript, log and checkpoints keep every word.
 */
public final class ContextCompaction {

    /** How many messages after the last summary make the conversation due for one. */
    public static final int AFTER = 24;
    /** How many of the latest messages are kept word for word. */
    public static final int KEEP = 8;
    /** What a summary message starts with (only this service writes system messages into a conversation). */
    public static final String PREFIX = "Summary of the conversation so far: ";
    /** The run's log names a summary written with this engine event (rtf-context-compacted). */
    public static final String EVENT = "context_compacted";
    /** The instruction the model summarises with. */
    static final String INSTRUCTION = "Summarise the phone conversation below for the assistant who continues it."
            + " Keep every fact, name, number, date, decision, promise and open question; leave out greetings and"
            + " small talk. Write at most 150 words, in the third person, in the conversation's language.";

    /** A summary to ask for: of the messages before {@code cut}, with this request. */
    public record Due(int cut, ModelRequest request) {
    }

    private ContextCompaction() {
    }

    /** The messages the model is asked with: from the last summary on (all of them when there is none). */
    public static List<ChatMessage> visible(List<ChatMessage> messages) {
        int last = lastSummary(messages);
        return last < 0 ? messages : messages.subList(last, messages.size());
    }

    /** The summary the conversation is due for, if any. */
    public static Optional<Due> due(ConversationState state) {
        List<ChatMessage> messages = state.messages();
        int last = lastSummary(messages);
        int from = last + 1;
        if (messages.size() - from <= AFTER) {
            return Optional.empty();
        }
        int cut = messages.size() - KEEP;
        while (cut > from && messages.get(cut).role() != ChatMessage.Role.USER) {
            cut--; // the kept part begins with the caller: a function call and its result stay together
        }
        if (cut <= from) {
            return Optional.empty();
        }
        StringBuilder text = new StringBuilder();
        if (last >= 0) {
            text.append("Earlier: ").append(messages.get(last).content().substring(PREFIX.length())).append('\n');
        }
        for (ChatMessage m : messages.subList(from, cut)) {
            if ((m.role() == ChatMessage.Role.USER || m.role() == ChatMessage.Role.ASSISTANT) && m.content() != null
                    && !m.content().isBlank()) {
                text.append(m.role() == ChatMessage.Role.USER ? "Caller: " : "Assistant: ").append(m.content().strip())
                        .append('\n');
            } else if (m.role() == ChatMessage.Role.TOOL && m.content() != null) {
                text.append("(A tool answered: ").append(m.content().strip()).append(")\n");
            }
        }
        return Optional.of(new Due(cut, new ModelRequest(List.of(ChatMessage.system(INSTRUCTION),
                ChatMessage.user(text.toString())), List.of())));
    }

    /**
     * The conversation with {@code summary} of the messages before {@code cut} placed there; unchanged when the
     * conversation no longer has them (it was rewound) or the summary is empty.
     */
    public static ConversationState apply(ConversationState state, int cut, String summary) {
        if (summary == null || summary.isBlank() || cut > state.messages().size() || cut <= lastSummary(
                state.messages())) {
            return state;
        }
        List<ChatMessage> messages = new ArrayList<>(state.messages());
        messages.add(cut, ChatMessage.system(PREFIX + summary.strip()));
        return new ConversationState(state.currentNodeId(), messages, state.gathered(), state.userTurns(),
                state.ended(), state.endReason());
    }

    private static int lastSummary(List<ChatMessage> messages) {
        for (int i = messages.size() - 1; i >= 0; i--) {
            ChatMessage m = messages.get(i);
            if (m.role() == ChatMessage.Role.SYSTEM && m.content() != null && m.content().startsWith(PREFIX)) {
                return i;
            }
        }
        return -1;
    }
}
