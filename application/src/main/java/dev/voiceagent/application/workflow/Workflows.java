package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowError;
import dev.voiceagent.domain.workflow.WorkflowValidator;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Set;
import java.util.UUID;

/** Steps the workflow use cases share: find in the organization, mint trigger paths, pre-check. */
final class Workflows {

    private Workflows() {
    }

    static Uni<Workflow> find(WorkflowRepository workflows, long organizationId, long workflowId) {
        return workflows.find(organizationId, workflowId).map(found -> found.orElseThrow(
                () -> new ResourceNotFoundException("Workflow with id " + workflowId + " not found")));
    }

    /** The workflow with its number of runs, as the workflow responses show it. */
    static Uni<WorkflowDetails> details(WorkflowRepository workflows, Workflow workflow) {
        return workflows.totalRuns(workflow.organizationId(), workflow.id()).map(n -> new WorkflowDetails(workflow, n));
    }

    /** Empty trigger paths get a fresh UUID. */
    static WorkflowDefinition mintTriggerPaths(WorkflowDefinition definition) {
        return definition.withTriggerPaths(current -> current != null ? current : UUID.randomUUID().toString());
    }

    /** The lighter check for saving: malformed input is a 422, a trigger path taken elsewhere a 409. */
    static void preCheck(WorkflowDefinition definition, Set<String> triggerPathsInUse) {
        List<WorkflowError> errors = WorkflowValidator.preCheck(definition, triggerPathsInUse);
        if (!errors.isEmpty()) {
            throw new InvalidWorkflowException(errors, errors.stream().allMatch(WorkflowValidator::isTriggerConflict));
        }
    }
}
