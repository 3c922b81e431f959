package dev.voiceagent.domain.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TextChatSessionTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

    private static ChatTurn turn(String id, String user, String node, boolean ended) {
        ConversationState state = new ConversationState(node, List.of(ChatMessage.user(user == null ? "-" : user)),
                Map.of(), 0, ended, ended ? "end_call_node" : null);
        return new ChatTurn(id, T0, user, "answer " + id, T0, List.of(), TokenUsage.ZERO, state);
    }

    @Test
    void aRewindResumesFromTheCursorAndTheNextMessageSetsTheFutureAside() {
        ConversationState initial = new ConversationState("start", List.of(), Map.of(), 0, false, null);
        TextChatSession session = TextChatSession.empty().withTurn(turn("t1", null, "1", false), T0)
                .withTurn(turn("t2", "a", "2", false), T0).withTurn(turn("t3", "b", "3", false), T0);
        assertThat(session.resumeFrom(initial).currentNodeId()).isEqualTo("3");

        TextChatSession rewound = session.rewoundTo("t1");
        assertThat(rewound.status()).isEqualTo(TextChatSession.REWOUND);
        assertThat(rewound.activeTurns()).extracting(ChatTurn::id).containsExactly("t1");
        assertThat(rewound.resumeFrom(initial).currentNodeId()).isEqualTo("1");
        // undoing the rewind before a new message brings the turns back
        assertThat(rewound.rewoundTo(null).activeTurns()).hasSize(3);

        TextChatSession continued = rewound.withTurn(turn("t4", "c", "2", false), T0);
        assertThat(continued.turns()).extracting(ChatTurn::id).containsExactly("t1", "t4");
        assertThat(continued.cursorTurnId()).isNull();
        assertThat(continued.discardedFuture()).hasSize(1);
        assertThat(continued.discardedFuture().getFirst()).containsEntry("rewound_from_turn_id", "t1");
        assertThat((List<?>) continued.discardedFuture().getFirst().get("turns")).hasSize(2);

        assertThatThrownBy(() -> continued.rewoundTo("t2")).hasMessageContaining("Turn not found");
    }

    @Test
    void aTurnThatEndsTheConversationCompletesTheSessionAndTheDocumentRoundTrips() {
        TextChatSession session = TextChatSession.empty().withTurn(turn("t1", null, "1", false), T0)
                .withTurn(turn("t2", "bye", "3", true), T0);
        assertThat(session.completed()).isTrue();
        TextChatSession back = TextChatSession.fromMap(session.toMap());
        assertThat(back).isEqualTo(session);
        assertThat(session.toMap()).containsKeys("version", "status", "cursor_turn_id", "turns", "discarded_future",
                "simulator");
    }
}
