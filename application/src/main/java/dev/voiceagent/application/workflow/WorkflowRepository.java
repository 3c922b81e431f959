package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowStatus;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** Out-port: workflows and their versions, always within one organization. */
public interface WorkflowRepository {

    /**
     * Stores a new workflow with its versions and trigger paths in one transaction. A trigger path
     * taken meanwhile by another workflow fails with InvalidWorkflowException (conflict).
     */
    Uni<Workflow> insert(Workflow workflow);

    Uni<Optional<Workflow>> find(long organizationId, long workflowId);

    /**
     * Writes the changes from {@code before} to {@code after} in one transaction: name, status and
     * folder; the draft inserted or updated; a publish (previous version archived, draft published);
     * the trigger paths of the draft and published versions.
     */
    Uni<Workflow> save(Workflow before, Workflow after);

    /** max(version_number) + 1 over all versions of the workflow. */
    Uni<Integer> nextVersionNumber(long workflowId);

    /** Newest first; an empty status set means every status. */
    Uni<List<WorkflowListItem>> list(long organizationId, Set<WorkflowStatus> statuses);

    Uni<WorkflowCounts> count(long organizationId);

    Uni<Long> totalRuns(long organizationId, long workflowId);

    /** The trigger paths of every other workflow of the organization (draft and published versions). */
    Uni<Set<String>> triggerPathsInUse(long organizationId, Long exceptWorkflowId);

    /** The workflow whose draft or published version has this trigger path. */
    Uni<Optional<Long>> findIdByTriggerPath(long organizationId, String triggerPath);

    /** The workflow with this uuid. */
    Uni<Optional<Long>> findIdByUuid(long organizationId, UUID workflowUuid);

    /** One version of the workflow by id (a run's definition), whatever its status. */
    Uni<Optional<WorkflowVersion>> findVersion(long organizationId, long workflowId, long definitionId);

    /** Newest first. */
    Uni<List<WorkflowVersion>> versions(long organizationId, long workflowId, int limit, int offset);
}
