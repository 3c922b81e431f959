package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.tool.ToolChecks;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.WorkflowError;
import dev.voiceagent.domain.workflow.WorkflowValidator;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/** Validates the draft fully, archives the published version and publishes the draft. */
@Singleton
public class PublishWorkflowService implements PublishWorkflowUseCase {

    private final WorkflowRepository workflows;
    private final ToolChecks tools;
    private final Clock clock;

    public PublishWorkflowService(WorkflowRepository workflows, ToolChecks tools, Clock clock) {
        this.workflows = workflows;
        this.tools = tools;
        this.clock = clock;
    }

    @Override
    public Uni<WorkflowVersion> publish(Principal principal, long workflowId) {
        long org = principal.organizationId();
        return Workflows.find(workflows, org, workflowId).chain(before -> {
            if (before.draft() == null) {
                throw new DomainRuleViolation("No draft to publish");
            }
            return Uni.combine().all().unis(workflows.triggerPathsInUse(org, workflowId),
                    tools.check(org, before.draft().definition())).asTuple().chain(checked -> {
                List<WorkflowError> errors = new ArrayList<>(WorkflowValidator.validate(before.draft().definition(),
                        checked.getItem1()));
                errors.addAll(checked.getItem2());
                if (!errors.isEmpty()) {
                    throw new InvalidWorkflowException(errors, false);
                }
                return workflows.save(before, before.publishDraft(clock.instant()));
            });
        }).map(saved -> saved.published());
    }
}
