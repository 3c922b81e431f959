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
    void withNoSharedWordItSaysWhatItHeardAndTheNodesFirstInstructionAsALine() {
        ModelReply reply = simulator.complete(asked("hmm", INTERESTED, NOT_NOW));
        assertThat(reply.toolCalls()).isEmpty();
        assertThat(reply.text()).isEqualTo("I heard: hmm. May I ask when you are free?");
        assertThat(reply.usage().totalTokens()).isPositive();
    }

    /** The built-in templates' node prompts, rendered with their example values. */
    @Test
    void aNodesPurposeIsSaidAsAPersonWouldSayItNeverReadAsInstructions() {
        assertThat(SimulatorLanguageModel.line("Ask about the need, the budget, who decides and the timeline. Keep"
                + " questions short.")).isEqualTo("Can you tell me about the need, the budget, who decides and the"
                + " timeline?");
        assertThat(SimulatorLanguageModel.line("Ask for a rating from 1 to 10, what went well, and what could be"
                + " better. Do not argue.")).isEqualTo("Could you give me a rating from 1 to 10, what went well, and"
                + " what could be better?");
        assertThat(SimulatorLanguageModel.line("You are a friendly scheduling assistant for Acme Dental. Remind Alex"
                + " of the appointment on Tuesday at 10 am and ask whether they will attend."))
                .as("the persona skipped, a reminder and a question").isEqualTo("This is a reminder of the appointment"
                        + " on Tuesday at 10 am. Can you tell me whether you will attend?");
        assertThat(SimulatorLanguageModel.line("Thank Alex, repeat what was agreed and say goodbye."))
                .isEqualTo("Thank you for your time. Goodbye.");
        assertThat(SimulatorLanguageModel.line("You are Sam, a polite representative for Acme Software."))
                .as("only who it is: said in the first person").isEqualTo("I am Sam, a polite representative for Acme"
                        + " Software.");
        assertThat(SimulatorLanguageModel.line("Global rules.\n\nConfirm the order.")).isEqualTo("Confirm the order.");
    }

    @Test
    void theGraphsTransitionsAreFollowedByWordFormsAndAPlainYes() {
        FunctionSpec ready = new FunctionSpec("caller_engaged", "The caller is ready to continue",
                FunctionSpec.NO_PARAMETERS, FunctionSpec.Kind.TRANSITION);
        FunctionSpec handled = new FunctionSpec("appointment_handled", "The caller confirmed, rescheduled or"
                + " cancelled", FunctionSpec.NO_PARAMETERS, FunctionSpec.Kind.TRANSITION);
        assertThat(simulator.complete(asked("Yes, sure.", ready)).toolCalls()).extracting(c -> c.name())
                .containsExactly("caller_engaged");
        assertThat(simulator.complete(asked("I need to cancel it, sorry", ready, handled)).toolCalls())
                .extracting(c -> c.name()).containsExactly("appointment_handled");
        assertThat(simulator.complete(asked("Could you call me next month instead of today", handled)).toolCalls())
                .as("no word of the condition, not a plain yes").isEmpty();
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
