package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

/** Summarises the workflow's most recent runs (the last 100). */
@Singleton
public class ReviewPilotRunsService implements ReviewPilotRunsUseCase {

    static final int RECENT_RUNS = 100;
    static final int MAX_PROBLEMS = 10;

    private final WorkflowRepository workflows;
    private final WorkflowRunRepository runs;

    public ReviewPilotRunsService(WorkflowRepository workflows, WorkflowRunRepository runs) {
        this.workflows = workflows;
        this.runs = runs;
    }

    @Override
    public Uni<PilotReview> review(Principal principal, long workflowId) {
        long org = principal.organizationId();
        return Workflows.find(workflows, org, workflowId)
                .chain(w -> runs.recent(org, workflowId, RECENT_RUNS))
                .map(recent -> PilotReview.of(workflowId, recent, MAX_PROBLEMS));
    }
}
