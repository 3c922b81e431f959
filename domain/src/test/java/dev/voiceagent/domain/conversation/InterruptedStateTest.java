package dev.voiceagent.domain.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class InterruptedStateTest {

    private static final ToolCall CALL = new ToolCall("c1", "lookup", Map.of());

    private static ConversationState state(ChatMessage... messages) {
        return new ConversationState("n1", List.of(messages), Map.of("a", 1), 2, false, null);
    }

    @Test
    void theLastAnswerKeepsOnlyWhatWasHeard() {
        ConversationState s = state(ChatMessage.user("hi"), ChatMessage.assistant("Hello. How can I help you today?",
                List.of())).interrupted("Hello.");
        assertThat(s.messages()).extracting(ChatMessage::content).containsExactly("hi", "Hello.");
        assertThat(s.gathered()).containsEntry("a", 1);
        assertThat(s.userTurns()).isEqualTo(2);
    }

    @Test
    void anAnswerNobodyHeardIsDroppedButItsFunctionCallsStay() {
        ConversationState plain = state(ChatMessage.user("hi"), ChatMessage.assistant("Hello there.", List.of()))
                .interrupted("");
        assertThat(plain.messages()).extracting(ChatMessage::content).containsExactly("hi");

        ConversationState withCall = state(ChatMessage.user("hi"), ChatMessage.assistant("Let me look.", List.of(CALL)),
                ChatMessage.tool("c1", "found")).interrupted(null);
        assertThat(withCall.messages()).hasSize(3);
        assertThat(withCall.messages().get(1).content()).isNull();
        assertThat(withCall.messages().get(1).toolCalls()).containsExactly(CALL);
    }

    @Test
    void aTurnCutShortKeepsTheCallerAndWhatItHeardAndNothingElse() {
        ConversationState before = state(ChatMessage.assistant("Hi.", List.of()));
        ConversationState heard = before.cutShort("I want to book", "Sure.");
        assertThat(heard.messages()).extracting(ChatMessage::content).containsExactly("Hi.", "I want to book", "Sure.");
        assertThat(heard.userTurns()).isEqualTo(3);
        assertThat(heard.currentNodeId()).isEqualTo("n1");

        ConversationState unheard = before.cutShort("I want to book", " ");
        assertThat(unheard.messages()).extracting(ChatMessage::content).containsExactly("Hi.", "I want to book");
    }

    @Test
    void theCallersWordsTranscribedAfterTheTurnAreWrittenIntoItsMessageAndNothingElseIsTouched() {
        ConversationState s = state(ChatMessage.assistant("Hi.", List.of()), ChatMessage.user("(not transcribed)"),
                ChatMessage.assistant("Sure.", List.of()));
        ConversationState heard = s.withUserText(1, " I want to book ");
        assertThat(heard.messages().get(1)).isEqualTo(ChatMessage.user("I want to book"));
        assertThat(heard.messages().get(2)).isEqualTo(s.messages().get(2));
        assertThat(s.withUserText(0, "not a user message")).as("an assistant message stays").isEqualTo(s);
        assertThat(s.withUserText(7, "past the end")).isEqualTo(s);
        assertThat(s.withUserText(1, " ")).as("nothing heard changes nothing").isEqualTo(s);
    }
}
