package dev.voiceagent.application.voice.runtime.port.out;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.voice.runtime.port.out.CallCheckpoint;
import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.ConversationState;
import dev.voiceagent.domain.conversation.TokenUsage;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CallCheckpointTest {

    @Test
    void aCheckpointReadBackIsTheCallItWasAndOneThatCannotBeReadIsNone() {
        ConversationState state = new ConversationState("end", List.of(ChatMessage.assistant("Hello.", List.of()),
                ChatMessage.user("Where is my order?")), Map.of("order", "A-17"), 1, false, null);
        CallCheckpoint checkpoint = new CallCheckpoint(state, List.of(Map.of("type", "rtf-bot-text", "turn", 1,
                "payload", Map.of("text", "Hello."))), new TokenUsage(50, 10, 60), 4.25, 42,
                Instant.parse("2026-11-26T08:00:00Z"), 2);
        CallCheckpoint read = CallCheckpoint.fromMap(checkpoint.toMap());
        assertThat(read).isEqualTo(checkpoint);
        assertThat(CallCheckpoint.fromMap(null)).isNull();
        assertThat(CallCheckpoint.fromMap(Map.of("conversation", "not a conversation"))).isNull();
        assertThat(CallCheckpoint.fromMap(Map.of("conversation", state.toMap(), "connected_at", "yesterday")))
                .as("a checkpoint this version cannot read starts no call from it").isNull();
    }
}
