package dev.voiceagent.adapters.outbound;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.conversation.ChatMessage;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.ModelReply;
import dev.voiceagent.domain.conversation.ModelRequest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SimulatorLanguageModelTest {

    private final SimulatorLanguageModel simulator = new SimulatorLanguageModel();

    private static final FunctionSpec INTERESTED = new FunctionSpec("interested",
            "The caller wants to book an appointment", FunctionSpec.NO_PARAMETERS, FunctionSpec.Kind.TRANSITION);
    private static final FunctionSpec NOT_NOW = new FunctionSpec("not_now", "The caller is busy and will call back later",
            FunctionSpec.NO_PARAMETERS, FunctionSpec.Kind.TRANSITION);
    private static final FunctionSpec EXTRACT = new FunctionSpec("extract_variables", "Record",
            Map.of("type", "object", "properties", Map.of("caller_name", Map.of("type", "string"),
                    "age", Map.of("type", "number"))), FunctionSpec.Kind.EXTRACTION);

    private static ModelRequest asked(String userText, FunctionSpec... functions) {
        return new ModelRequest(List.of(ChatMessage.system("Be polite.\n\nAsk when they are free. Then confirm."),
                ChatMessage.user(userText)), List.of(functions));
    }

    @Test
    void theEdgeSharingTheMostWordsWithTheMessageIsTaken() {
        ModelReply reply = simulator.complete(asked("I'd like to book an appointment please", INTERESTED, NOT_NOW));
        assertThat(reply.toolCalls()).extracting(c -> c.name()).containsExactly("interested");
        assertThat(simulator.complete(asked("I'm busy, call back later", INTERESTED, NOT_NOW)).toolCalls())
                .extracting(c -> c.name()).containsExactly("not_now");
    }

    @Test
    void withNoSharedWordItAnswersWithTheFirstSentenceOfTheNodesPrompt() {
        ModelReply reply = simulator.complete(asked("hmm", INTERESTED, NOT_NOW));
        assertThat(reply.toolCalls()).isEmpty();
        assertThat(reply.text()).isEqualTo("Ask when they are free.");
        assertThat(reply.usage().totalTokens()).isPositive();
    }

    @Test
    void valuesSaidAsNameIsValueAreExtractedAndTheSameRequestGetsTheSameAnswer() {
        ModelRequest request = asked("My caller name is Bob Smith, age: 42. I want to book", EXTRACT, INTERESTED);
        ModelReply reply = simulator.complete(request);
        assertThat(reply.toolCalls()).hasSize(2);
        assertThat(reply.toolCalls().getFirst().arguments()).containsEntry("caller_name", "Bob Smith")
                .containsEntry("age", "42");
        assertThat(simulator.complete(request)).isEqualTo(reply);
    }
}
