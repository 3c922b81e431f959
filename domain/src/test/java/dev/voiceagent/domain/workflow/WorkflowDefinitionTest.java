package dev.voiceagent.domain.workflow;

import static dev.voiceagent.domain.workflow.Definitions.node;
import static dev.voiceagent.domain.workflow.Definitions.nodes;
import static dev.voiceagent.domain.workflow.Definitions.valid;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkflowDefinitionTest {

    @Test
    void unknownKeysSurviveAndTheTreeIsImmutable() {
        WorkflowDefinition definition = WorkflowDefinition.of(valid());
        assertThat(definition.tree()).containsKey("viewport");
        assertThat(definition.tree()).isEqualTo(valid());
        assertThatThrownBy(() -> definition.tree().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(definition.nodes()).extracting(WorkflowDefinition.Node::type)
                .containsExactly("startCall", "agentNode", "endCall");
    }

    @Test
    void triggerPathsAreMintedForEmptyTriggersAndCanAllBeReplaced() {
        WorkflowDefinition definition = WorkflowDefinition.of(valid(d -> {
            nodes(d).add(node("t1", "trigger", Map.of("name", "T", "trigger_path", "")));
        }));
        WorkflowDefinition minted = definition.withTriggerPaths(current -> current == null ? "new-path" : current);
        assertThat(minted.triggerPaths()).containsExactly("new-path");
        assertThat(minted.tree().get("viewport")).isEqualTo(definition.tree().get("viewport"));
        assertThat(minted.withTriggerPaths(current -> current + "-copy").triggerPaths()).containsExactly("new-path-copy");
        assertThat(definition.triggerPaths()).isEmpty();
    }

    @Test
    void transitionToolNamesAreLowerCaseWithUnderscores() {
        assertThat(WorkflowDefinition.transitionToolName("Book Appointment!")).isEqualTo("book_appointment_");
        assertThat(WorkflowDefinition.transitionToolName("Näh-2")).isEqualTo("n_h_2");
    }
}
