package dev.voiceagent.domain.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.workflow.WorkflowDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContextCompactionTest {

    /** {@code turns} exchanges: the caller's line, then the assistant's (the third also calls a tool). */
    static ConversationState talked(int turns) {
        List<ChatMessage> messages = new ArrayList<>();
        for (int i = 1; i <= turns; i++) {
            messages.add(ChatMessage.user("Question " + i + "?"));
            if (i == 3) {
                messages.add(ChatMessage.assistant(null, List.of(new ToolCall("c3", "lookup", Map.of()))));
                messages.add(ChatMessage.tool("c3", "order 42 shipped"));
            }
            messages.add(ChatMessage.assistant("Answer " + i + ".", List.of()));
        }
        return new ConversationState("start", messages, Map.of(), turns, false, null);
    }

    @Test
    void aShortConversationIsNotDueAndALongOneIsSummarisedUpToTheLastTurnsKeptWordForWord() {
        assertThat(ContextCompaction.due(talked(11))).as("24 messages: not yet").isEmpty();
        ConversationState longer = talked(13); // 28 messages
        ContextCompaction.Due due = ContextCompaction.due(longer).orElseThrow();
        assertThat(longer.messages().get(due.cut()).role()).as("the kept part starts with the caller")
                .isEqualTo(ChatMessage.Role.USER);
        assertThat(longer.messages().size() - due.cut()).isGreaterThanOrEqualTo(ContextCompaction.KEEP);
        String asked = due.request().messages().getLast().content();
        assertThat(asked).contains("Caller: Question 1?", "Assistant: Answer 1.", "(A tool answered: order 42 shipped)")
                .doesNotContain("Question 13?");

        ConversationState compacted = ContextCompaction.apply(longer, due.cut(), "The caller asked about order 42.");
        assertThat(compacted.messages()).hasSize(longer.messages().size() + 1)
                .as("every word stays for the transcript").containsAll(longer.messages());
        List<ChatMessage> visible = ContextCompaction.visible(compacted.messages());
        assertThat(visible.getFirst().content()).isEqualTo(ContextCompaction.PREFIX + "The caller asked about order 42.");
        assertThat(visible).hasSize(longer.messages().size() - due.cut() + 1);
        assertThat(ContextCompaction.due(compacted)).as("just summarised").isEmpty();
        assertThat(ContextCompaction.apply(compacted, due.cut(), "again")).as("not twice at one place")
                .isEqualTo(compacted);
    }

    @Test
    void theNextSummaryStartsFromTheLastOneAndTheModelIsAskedFromItOn() {
        ConversationState first = ContextCompaction.apply(talked(13), ContextCompaction.due(talked(13)).orElseThrow()
                .cut(), "Earlier facts.");
        List<ChatMessage> more = new ArrayList<>(first.messages());
        for (int i = 14; i <= 30; i++) {
            more.add(ChatMessage.user("Question " + i + "?"));
            more.add(ChatMessage.assistant("Answer " + i + ".", List.of()));
        }
        ConversationState later = new ConversationState("start", more, Map.of(), 30, false, null);
        ContextCompaction.Due due = ContextCompaction.due(later).orElseThrow();
        assertThat(due.request().messages().getLast().content()).startsWith("Earlier: Earlier facts.")
                .doesNotContain("Question 1?");

        AgentEngine engine = new AgentEngine(WorkflowDefinition.of(Map.of(
                "nodes", List.of(Map.of("id", "start", "type", "startCall", "data", Map.of("name", "Start",
                        "prompt", "Help."))), "edges", List.of())), Map.of());
        ModelRequest asked = ((AgentEngine.Step.AskModel) engine.reply(first, "One more?").next()).request();
        assertThat(asked.messages().get(1).content()).as("after the node's prompt, the summary")
                .isEqualTo(ContextCompaction.PREFIX + "Earlier facts.");
        assertThat(asked.messages()).extracting(ChatMessage::content).doesNotContain("Question 1?")
                .contains("Question 13?", "One more?");
    }
}
