package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.time.Clock;

/** The existing draft, or a new one copied from the published version. */
@Singleton
public class CreateDraftService implements CreateDraftUseCase {

    private final WorkflowRepository workflows;
    private final Clock clock;

    public CreateDraftService(WorkflowRepository workflows, Clock clock) {
        this.workflows = workflows;
        this.clock = clock;
    }

    @Override
    public Uni<WorkflowVersion> createDraft(Principal principal, long workflowId) {
        return Workflows.find(workflows, principal.organizationId(), workflowId).chain(before -> {
            if (before.draft() != null) {
                return Uni.createFrom().item(before.draft());
            }
            return workflows.nextVersionNumber(workflowId)
                    .chain(next -> workflows.save(before, before.withDraftFromPublished(next, clock.instant())))
                    .map(saved -> saved.draft());
        });
    }
}
