package dev.voiceagent.domain.workflow;

import java.util.Locale;
import java.util.Objects;

/** One problem found in a workflow definition: where (kind, element id, field) and what. */
public record WorkflowError(Kind kind, String id, String field, String message) {

    public enum Kind {
        NODE, EDGE, WORKFLOW;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    public WorkflowError {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(message, "message");
    }

    public static WorkflowError node(String id, String field, String message) {
        return new WorkflowError(Kind.NODE, id, field, message);
    }

    public static WorkflowError edge(String id, String field, String message) {
        return new WorkflowError(Kind.EDGE, id, field, message);
    }

    public static WorkflowError workflow(String message) {
        return new WorkflowError(Kind.WORKFLOW, null, null, message);
    }
}
