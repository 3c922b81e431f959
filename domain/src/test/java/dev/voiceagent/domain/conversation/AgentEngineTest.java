package dev.voiceagent.domain.conversation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.conversation.AgentEngine.Step;
import dev.voiceagent.domain.conversation.AgentEngine.Turn;
import dev.voiceagent.domain.conversation.AgentEngine.TurnResult;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The engine turn by turn, with the model's replies scripted: no model involved. */
class AgentEngineTest {

    /** Start (greets) -> Qualify (extracts name and age) -> Book / Goodbye (endCall); a global node. */
    static WorkflowDefinition definition(boolean greeting) {
        Map<String, Object> startData = new LinkedHashMap<>();
        startData.put("name", "Start");
        startData.put("prompt", "Introduce yourself as the assistant of {{company}}.");
        if (greeting) {
            startData.put("greeting", "Hello {{first_name}}, this is {{company}}.");
        }
        Map<String, Object> qualify = new LinkedHashMap<>();
        qualify.put("name", "Qualify");
        qualify.put("prompt", "Ask for the caller's name and age.");
        qualify.put("extraction_enabled", true);
        qualify.put("extraction_prompt", "Record the caller's details");
        qualify.put("extraction_variables", List.of(Map.of("name", "caller_name", "type", "string", "prompt",
                "The caller's name"), Map.of("name", "age", "type", "number")));
        return WorkflowDefinition.of(Map.of(
                "nodes", List.of(
                        Map.of("id", "1", "type", "startCall", "data", startData),
                        Map.of("id", "2", "type", "agentNode", "data", qualify),
                        Map.of("id", "3", "type", "endCall", "data", Map.of("name", "Goodbye",
                                "prompt", "Thank {{caller_name}} and say goodbye.")),
                        Map.of("id", "4", "type", "agentNode", "data", Map.of("name", "Private", "prompt",
                                "Talk privately.", "add_global_prompt", false)),
                        Map.of("id", "9", "type", "globalNode", "data", Map.of("name", "Global", "prompt",
                                "You are polite."))),
                "edges", List.of(
                        Map.of("id", "e1", "source", "1", "target", "2", "data", Map.of("label", "Interested",
                                "condition", "The caller wants to hear more about the offer",
                                "transition_speech", "Great, {{first_name}}!")),
                        Map.of("id", "e2", "source", "2", "target", "3", "data", Map.of("label", "Done",
                                "condition", "The caller gave their details")),
                        Map.of("id", "e3", "source", "1", "target", "4", "data", Map.of("label", "Go private",
                                "condition", "The caller asks to talk privately")))));
    }

    private static final Map<String, Object> CONTEXT = Map.of("company", "Acme", "first_name", "Ann");

    /** Runs a turn to its end, answering each model request with the next scripted reply. */
    static TurnResult run(Turn turn, Deque<ModelReply> replies, List<ModelRequest> asked) {
        while (true) {
            Step step = turn.next();
            switch (step) {
                case Step.AskModel ask -> {
                    asked.add(ask.request());
                    turn.accept(replies.removeFirst());
                }
                case Step.RunTool tool -> turn.acceptToolResult(tool.call().id(), Map.of("ok", true,
                        "tool", tool.call().name()));
                case Step.Finished done -> {
                    return done.result();
                }
            }
        }
    }

    private static Deque<ModelReply> script(ModelReply... replies) {
        return new ArrayDeque<>(List.of(replies));
    }

    @Test
    void theOpeningTurnSaysTheGreetingWithoutAskingTheModel() {
        AgentEngine engine = new AgentEngine(definition(true), CONTEXT);
        List<ModelRequest> asked = new ArrayList<>();
        TurnResult opened = run(engine.open(engine.initialState()), script(), asked);
        assertThat(asked).isEmpty();
        assertThat(opened.assistantText()).isEqualTo("Hello Ann, this is Acme.");
        assertThat(opened.state().currentNodeId()).isEqualTo("1");
        assertThat(opened.state().messages()).extracting(ChatMessage::role).containsExactly(ChatMessage.Role.ASSISTANT);
    }

    @Test
    void aCallsGreetingOverrideTakesPrecedenceOverTheSavedGreetingWhenItIsValid() {
        Map<String, Object> text = new LinkedHashMap<>(CONTEXT);
        text.put("greeting_override", Map.of("type", "text", "text", "Hi {{first_name}}, a quick one from Acme."));
        AgentEngine engine = new AgentEngine(definition(true), text);
        assertThat(run(engine.open(engine.initialState()), script(), new ArrayList<>()).assistantText())
                .isEqualTo("Hi Ann, a quick one from Acme.");
        assertThat(engine.greetingRecording()).isEmpty();

        Map<String, Object> audio = new LinkedHashMap<>(CONTEXT);
        audio.put("greeting_override", Map.of("type", "audio", "recording_id", " welcome-ann "));
        AgentEngine recorded = new AgentEngine(definition(true), audio);
        assertThat(recorded.greetingRecording()).contains("welcome-ann");

        for (Object invalid : List.of(Map.of("type", "text", "text", " "), Map.of("type", "audio"),
                Map.of("type", "video", "recording_id", "x"), "hello")) {
            Map<String, Object> context = new LinkedHashMap<>(CONTEXT);
            context.put("greeting_override", invalid);
            AgentEngine saved = new AgentEngine(definition(true), context);
            assertThat(saved.greetingRecording()).as("%s", invalid).isEmpty();
            assertThat(run(saved.open(saved.initialState()), script(), new ArrayList<>()).assistantText())
                    .as("%s: the saved greeting", invalid).isEqualTo("Hello Ann, this is Acme.");
        }
    }

    @Test
    void aTransitionWhoseSpeechIsARecordingNamesItForTheVoiceInsteadOfSayingText() {
        Map<String, Object> definition = new LinkedHashMap<>(Map.of("nodes", List.of(
                Map.of("id", "1", "type", "startCall", "data", Map.of("name", "Start", "prompt", "Greet.",
                        "greeting", "Hello.")),
                Map.of("id", "2", "type", "agentNode", "data", Map.of("name", "Next", "prompt", "Help."))),
                "edges", List.of(Map.of("id", "e1", "source", "1", "target", "2", "data", Map.of("label", "Next",
                        "condition", "Always", "transition_speech", "One moment.", "transition_speech_type",
                        "audio", "transition_speech_recording_id", "hold-on")))));
        AgentEngine engine = new AgentEngine(WorkflowDefinition.of(definition), CONTEXT);
        ConversationState state = run(engine.open(engine.initialState()), script(), new ArrayList<>()).state();
        Turn turn = engine.reply(state, "Go on");
        TurnResult result = run(turn, script(ModelReply.calls(new ToolCall("c1", "next", Map.of())),
                ModelReply.text("How can I help?")), new ArrayList<>());
        assertThat(turn.recordings()).containsExactly(new AgentEngine.Recorded(0, "hold-on"));
        assertThat(turn.outputs()).containsExactly("How can I help?").doesNotContain("One moment.");
        assertThat(result.state().currentNodeId()).isEqualTo("2");
    }

    @Test
    void withoutAGreetingTheModelSpeaksFirstWithTheGlobalAndNodePromptsAndTheEdgesAsFunctions() {
        AgentEngine engine = new AgentEngine(definition(false), CONTEXT);
        List<ModelRequest> asked = new ArrayList<>();
        TurnResult opened = run(engine.open(engine.initialState()), script(ModelReply.text("Hi, Acme here.")), asked);
        assertThat(asked).hasSize(1);
        ModelRequest request = asked.getFirst();
        assertThat(request.systemPrompt()).isEqualTo("You are polite.\n\nIntroduce yourself as the assistant of Acme.");
        assertThat(request.functions()).extracting(FunctionSpec::name).containsExactly("interested", "go_private");
        assertThat(request.functions().getFirst().description())
                .isEqualTo("The caller wants to hear more about the offer");
        assertThat(request.functions()).extracting(FunctionSpec::kind).containsOnly(FunctionSpec.Kind.TRANSITION);
        assertThat(opened.assistantText()).isEqualTo("Hi, Acme here.");
    }

    @Test
    void aTransitionMovesToTheTargetSaysItsSpeechAndAsksTheModelInTheNewNode() {
        AgentEngine engine = new AgentEngine(definition(true), CONTEXT);
        ConversationState state = run(engine.open(engine.initialState()), script(), new ArrayList<>()).state();
        List<ModelRequest> asked = new ArrayList<>();
        TurnResult turn = run(engine.reply(state, "Yes, tell me more"), script(
                ModelReply.calls(new ToolCall("call_1", "interested", Map.of())),
                ModelReply.text("May I have your name and age?")), asked);

        assertThat(asked).hasSize(2);
        assertThat(asked.get(1).systemPrompt()).isEqualTo("You are polite.\n\nAsk for the caller's name and age.");
        assertThat(asked.get(1).functions()).extracting(FunctionSpec::name).containsExactly("done", "extract_variables");
        assertThat(asked.get(1).messages()).extracting(ChatMessage::role).containsExactly(ChatMessage.Role.SYSTEM,
                ChatMessage.Role.ASSISTANT, ChatMessage.Role.USER, ChatMessage.Role.ASSISTANT, ChatMessage.Role.TOOL);
        assertThat(turn.state().currentNodeId()).isEqualTo("2");
        assertThat(turn.assistantText()).isEqualTo("Great, Ann!\n\nMay I have your name and age?");
        assertThat(turn.events()).extracting(TurnEvent::type).containsExactly(TurnEvent.TOOL_CALL_STARTED,
                TurnEvent.TOOL_CALL_RESULT, TurnEvent.NODE_TRANSITION);
        assertThat(turn.events().get(2).payload()).containsEntry("node_id", "2").containsEntry("previous_node_id", "1")
                .containsEntry("transition", "Interested");
        assertThat(turn.state().userTurns()).isEqualTo(1);
        assertThat(turn.modelCalls()).isEqualTo(2);
    }

    @Test
    void extractedValuesAreGatheredAsTheirDeclaredTypesAndFillLaterPrompts() {
        AgentEngine engine = new AgentEngine(definition(true), CONTEXT);
        ConversationState atQualify = new ConversationState("2", List.of(), Map.of(), 1, false, null);
        List<ModelRequest> asked = new ArrayList<>();
        TurnResult turn = run(engine.reply(atQualify, "I'm Bob, 42"), script(
                ModelReply.calls(new ToolCall("c1", "extract_variables", Map.of("caller_name", "Bob", "age", "42",
                        "not_declared", "x")), new ToolCall("c2", "done", Map.of())),
                ModelReply.text("Thanks Bob, goodbye!")), asked);

        assertThat(turn.state().gathered()).containsExactly(Map.entry("caller_name", "Bob"), Map.entry("age", 42L));
        assertThat(asked.get(1).systemPrompt()).endsWith("Thank Bob and say goodbye.");
        assertThat(asked.getFirst().functions().get(1).parameters().toString()).contains("caller_name", "The caller's name");
        // the endCall node spoke: the conversation has ended
        assertThat(turn.state().ended()).isTrue();
        assertThat(turn.state().endReason()).isEqualTo(AgentEngine.END_CALL_NODE);
        assertThat(turn.events()).extracting(TurnEvent::type).contains(TurnEvent.VARIABLES_EXTRACTED,
                TurnEvent.NODE_TRANSITION, TurnEvent.SESSION_END);
        assertThatThrownBy(() -> engine.reply(turn.state(), "hello?")).hasMessageContaining("ended");
    }

    @Test
    void aNodeCanLeaveTheGlobalPromptOutAndOnlyOneTransitionIsTakenPerReply() {
        AgentEngine engine = new AgentEngine(definition(true), CONTEXT);
        List<ModelRequest> asked = new ArrayList<>();
        TurnResult turn = run(engine.reply(engine.initialState(), "private please"), script(
                ModelReply.calls(new ToolCall("a", "go_private", Map.of()), new ToolCall("b", "interested", Map.of())),
                ModelReply.text("Sure.")), asked);
        assertThat(turn.state().currentNodeId()).isEqualTo("4");
        assertThat(asked.get(1).systemPrompt()).isEqualTo("Talk privately.");
        assertThat(asked.get(1).messages().getLast().content()).contains("already moved");
    }

    @Test
    void theUserTurnLimitAndTheModelCallLimitHold() {
        AgentEngine engine = new AgentEngine(definition(true), CONTEXT, null, 1, 3);
        ConversationState state = engine.initialState();
        List<ModelRequest> asked = new ArrayList<>();
        ModelReply loop = ModelReply.calls(new ToolCall("x", "no_such_function", Map.of()));
        TurnResult turn = run(engine.reply(state, "hi"), script(loop, loop, loop, loop), asked);
        assertThat(asked).hasSize(3);
        assertThat(turn.events().getLast().type()).isEqualTo(TurnEvent.MODEL_CALL_LIMIT);
        assertThat(turn.state().messages().get(2).content()).isEqualTo("Unknown function: no_such_function");
        assertThatThrownBy(() -> engine.reply(turn.state(), "again")).isInstanceOf(TurnLimitReached.class);
    }

    @Test
    void aNodesToolsAreOfferedAndRunByTheCaller() {
        FunctionSpec lookup = new FunctionSpec("lookup_order", "Find an order", Map.of("type", "object",
                "properties", Map.of("order_id", Map.of("type", "string"))), FunctionSpec.Kind.TOOL);
        AgentEngine engine = new AgentEngine(definition(true), CONTEXT,
                node -> node.id().equals("1") ? List.of(lookup) : List.of(), 0, 6);
        List<ModelRequest> asked = new ArrayList<>();
        Turn turn = engine.reply(engine.initialState(), "where is order 7?");
        assertThat(turn.next()).isInstanceOf(Step.AskModel.class);
        turn.accept(ModelReply.calls(new ToolCall("t1", "lookup_order", Map.of("order_id", "7"))));
        Step step = turn.next();
        assertThat(step).isInstanceOf(Step.RunTool.class);
        assertThat(((Step.RunTool) step).function().kind()).isEqualTo(FunctionSpec.Kind.TOOL);
        turn.acceptToolResult("t1", Map.of("status", "shipped"));
        TurnResult result = run(turn, script(ModelReply.text("It has shipped.")), asked);
        assertThat(asked.getFirst().messages().getLast().content()).isEqualTo("{\"status\":\"shipped\"}");
        assertThat(result.assistantText()).isEqualTo("It has shipped.");
    }

    @Test
    void theCheckpointRoundTripsThroughItsDocument() {
        AgentEngine engine = new AgentEngine(definition(true), CONTEXT);
        TurnResult turn = run(engine.reply(engine.initialState(), "Yes"), script(
                ModelReply.calls(new ToolCall("call_1", "interested", Map.of())), ModelReply.text("Your name?")),
                new ArrayList<>());
        ConversationState back = ConversationState.fromMap(turn.state().toMap());
        assertThat(back).isEqualTo(turn.state());
    }

    @Test
    void valuesAreCoercedToTheDeclaredType() {
        assertThat(AgentEngine.coerce("3.5", "number")).isEqualTo(3.5);
        assertThat(AgentEngine.coerce("1,200", "number")).isEqualTo(1200L);
        assertThat(AgentEngine.coerce("many", "number")).isNull();
        assertThat(AgentEngine.coerce("Yes", "boolean")).isEqualTo(true);
        assertThat(AgentEngine.coerce(" x ", "string")).isEqualTo("x");
        assertThat(AgentEngine.coerce("", "string")).isNull();
    }
}
