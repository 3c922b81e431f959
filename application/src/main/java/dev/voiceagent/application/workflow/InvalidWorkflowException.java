package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.workflow.WorkflowError;
import java.util.List;

/**
 * A definition that cannot be saved or published: 422 with {"detail": {is_valid: false, errors}},
 * or 409 with the same detail when the only problem is a conflict with another workflow.
 */
public class InvalidWorkflowException extends RuntimeException {

    private final transient List<WorkflowError> errors;
    private final boolean conflict;

    public InvalidWorkflowException(List<WorkflowError> errors, boolean conflict) {
        super(errors.isEmpty() ? "invalid workflow" : errors.getFirst().message(), null, false, false);
        this.errors = List.copyOf(errors);
        this.conflict = conflict;
    }

    public List<WorkflowError> errors() {
        return errors;
    }

    public boolean conflict() {
        return conflict;
    }
}
