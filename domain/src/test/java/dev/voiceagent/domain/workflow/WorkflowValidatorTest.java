package dev.voiceagent.domain.workflow;

import static dev.voiceagent.domain.workflow.Definitions.data;
import static dev.voiceagent.domain.workflow.Definitions.edge;
import static dev.voiceagent.domain.workflow.Definitions.edges;
import static dev.voiceagent.domain.workflow.Definitions.node;
import static dev.voiceagent.domain.workflow.Definitions.nodes;
import static dev.voiceagent.domain.workflow.Definitions.valid;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.workflow.WorkflowError.Kind;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

class WorkflowValidatorTest {

    private static List<WorkflowError> validate(Map<String, Object> definition) {
        return WorkflowValidator.validate(WorkflowDefinition.of(definition), Set.of("taken-path"));
    }

    @Test
    void theStarterGraphIsValidAndCyclesAreAllowed() {
        assertThat(validate(valid())).isEmpty();
        assertThat(validate(valid(d -> {
            nodes(d).add(node("agent2", "agentNode", Map.of("name", "Clarify", "prompt", "Clarify")));
            edges(d).add(edge("to2", "agent", "agent2", "Unclear"));
            edges(d).add(edge("back", "agent2", "agent", "Clear now"));
        }))).isEmpty();
    }

    private static Arguments rule(String rule, Consumer<Map<String, Object>> change, Kind kind, String id, String field,
            String message) {
        return Arguments.of(rule, change, new WorkflowError(kind, id, field, message));
    }

    static Stream<Arguments> oneFailingDefinitionPerRule() {
        return Stream.of(
                rule("unknown node type", d -> nodes(d).add(node("x", "teleporter", Map.of("name", "X"))),
                        Kind.NODE, "x", "type", "Unknown node type: 'teleporter'"),
                rule("missing required prompt", d -> data(nodes(d).get(1)).remove("prompt"),
                        Kind.NODE, "agent", "data.prompt", "prompt is required"),
                rule("blank required name", d -> data(nodes(d).get(2)).put("name", "  "),
                        Kind.NODE, "end", "data.name", "name is required"),
                rule("wrong field type", d -> data(nodes(d).get(1)).put("allow_interrupt", "yes"),
                        Kind.NODE, "agent", "data.allow_interrupt", "allow_interrupt must be a boolean"),
                rule("number out of range", d -> data(nodes(d).get(0)).put("delayed_start_duration", 30),
                        Kind.NODE, "start", "data.delayed_start_duration", "delayed_start_duration must be between 0.1 and 10"),
                rule("option not allowed", d -> data(nodes(d).get(0)).put("greeting_type", "video"),
                        Kind.NODE, "start", "data.greeting_type", "greeting_type must be one of: text, audio"),
                rule("node without data", d -> nodes(d).get(1).remove("data"),
                        Kind.NODE, "agent", "data", "Node data must be an object"),
                rule("duplicate node id", d -> nodes(d).add(node("agent", "agentNode", Map.of("name", "A", "prompt", "p"))),
                        Kind.NODE, "agent", "id", "Duplicate node id 'agent'"),
                rule("edge to a missing node", d -> edges(d).add(edge("e9", "agent", "ghost", "Haunt")),
                        Kind.EDGE, "e9", null, "Edge references missing node"),
                rule("edge without label", d -> data(edges(d).get(0)).remove("label"),
                        Kind.EDGE, "e1", "data.label", "label is required"),
                rule("edge without condition", d -> data(edges(d).get(1)).put("condition", ""),
                        Kind.EDGE, "e2", "data.condition", "condition is required"),
                rule("no start call", d -> {
                            nodes(d).removeIf(n -> n.get("id").equals("start"));
                            edges(d).removeIf(e -> e.get("source").equals("start"));
                        },
                        Kind.WORKFLOW, null, null, "Workflow must have at least one Start Call"),
                rule("two start calls", d -> nodes(d).add(node("start2", "startCall", Map.of("name", "S", "prompt", "p"))),
                        Kind.WORKFLOW, null, null, "Workflow can have at most one Start Call"),
                rule("two global nodes", d -> {
                            nodes(d).add(node("g1", "globalNode", Map.of("name", "G", "prompt", "p")));
                            nodes(d).add(node("g2", "globalNode", Map.of("name", "G", "prompt", "p")));
                        }, Kind.WORKFLOW, null, null, "Workflow can have at most one Global Node"),
                rule("two triggers", d -> {
                            nodes(d).add(node("t1", "trigger", Map.of("name", "T")));
                            nodes(d).add(node("t2", "trigger", Map.of("name", "T")));
                        }, Kind.WORKFLOW, null, null, "Workflow can have at most one API Trigger"),
                rule("start call with an incoming edge", d -> edges(d).add(edge("e3", "end", "start", "Again")),
                        Kind.NODE, "start", null, "Start Call cannot have incoming edges"),
                rule("agent node without incoming edge", d -> edges(d).removeIf(e -> e.get("id").equals("e1")),
                        Kind.NODE, "agent", null, "Agent Node must have at least 1 incoming edge(s)"),
                rule("end call with an outgoing edge", d -> edges(d).add(edge("e3", "end", "agent", "Resume")),
                        Kind.NODE, "end", null, "End Call cannot have outgoing edges"),
                rule("global node with an edge", d -> {
                            nodes(d).add(node("g", "globalNode", Map.of("name", "G", "prompt", "p")));
                            edges(d).add(edge("e3", "g", "agent", "Jump"));
                        }, Kind.NODE, "g", null, "Global Node cannot have outgoing edges"),
                rule("webhook with an edge", d -> {
                            nodes(d).add(node("w", "webhook", Map.of("name", "W")));
                            edges(d).add(edge("e3", "agent", "w", "Post"));
                        }, Kind.NODE, "w", null, "Webhook cannot have incoming edges"),
                rule("qa node with an edge", d -> {
                            nodes(d).add(node("q", "qa", Map.of("name", "Q")));
                            edges(d).add(edge("e3", "q", "end", "Score"));
                        }, Kind.NODE, "q", null, "QA Analysis cannot have outgoing edges"),
                rule("duplicate transition name from one node", d -> edges(d).add(edge("e3", "start", "end", "INTERESTED")),
                        Kind.EDGE, "e3", "data.label",
                        "Transition tool name \"interested\" is duplicated for this node. Use a unique edge label."),
                rule("trigger path with bad characters", d -> nodes(d).add(node("t", "trigger",
                                Map.of("name", "T", "trigger_path", "no spaces"))),
                        Kind.NODE, "t", "data.trigger_path", "trigger_path must match " + NodeTypes.TRIGGER_PATH_PATTERN),
                rule("trigger path too long", d -> nodes(d).add(node("t", "trigger",
                                Map.of("name", "T", "trigger_path", "x".repeat(37)))),
                        Kind.NODE, "t", "data.trigger_path", "trigger_path must be at most 36 characters"),
                rule("trigger path used by another workflow", d -> nodes(d).add(node("t", "trigger",
                                Map.of("name", "T", "trigger_path", "taken-path"))),
                        Kind.NODE, "t", "data.trigger_path", WorkflowValidator.TRIGGER_IN_USE),
                rule("nodes missing", d -> d.remove("nodes"),
                        Kind.WORKFLOW, null, null, "Workflow definition must have a 'nodes' array"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("oneFailingDefinitionPerRule")
    void eachRuleReportsKindIdFieldAndMessage(String rule, Consumer<Map<String, Object>> change, WorkflowError expected) {
        assertThat(validate(valid(change))).as(rule).contains(expected);
    }

    @Test
    void allProblemsAreReportedAtOnce() {
        List<WorkflowError> errors = validate(valid(d -> {
            data(nodes(d).get(1)).remove("prompt");
            data(nodes(d).get(2)).remove("prompt");
        }));
        assertThat(errors).extracting(WorkflowError::id).containsExactly("agent", "end");
    }

    @Test
    void draftsMayBeIncompleteButNotMalformed() {
        Map<String, Object> incomplete = valid(d -> {
            data(nodes(d).get(1)).remove("prompt");
            edges(d).clear();
        });
        assertThat(WorkflowValidator.preCheck(WorkflowDefinition.of(incomplete), Set.of())).isEmpty();
        assertThat(validate(incomplete)).isNotEmpty();
        Map<String, Object> conflicting = valid(d -> nodes(d).add(node("t", "trigger",
                Map.of("name", "T", "trigger_path", "taken-path"))));
        List<WorkflowError> errors = WorkflowValidator.preCheck(WorkflowDefinition.of(conflicting), Set.of("taken-path"));
        assertThat(errors).hasSize(1);
        assertThat(WorkflowValidator.isTriggerConflict(errors.getFirst())).isTrue();
        assertThat(WorkflowValidator.preCheck(WorkflowDefinition.of(valid(d -> nodes(d)
                .add(node("s2", "startCall", Map.of("name", "S"))))), Set.of()))
                .extracting(WorkflowError::message).containsExactly("Workflow can have at most one Start Call");
    }
}
