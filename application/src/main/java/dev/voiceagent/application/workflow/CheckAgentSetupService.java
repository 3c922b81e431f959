package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.tool.ToolChecks;
import dev.voiceagent.application.telephony.OutboundReadiness;
import dev.voiceagent.domain.workflow.WorkflowError;
import dev.voiceagent.domain.workflow.WorkflowValidator;
import io.smallrye.mutiny.Uni;
import java.util.ArrayList;
import java.util.List;

/** Published version valid, telephony ready for outbound, and at least one test run. */
@Singleton
public class CheckAgentSetupService implements CheckAgentSetupUseCase {

    private final WorkflowRepository workflows;
    private final WorkflowRunRepository runs;
    private final OutboundReadiness telephony;
    private final ToolChecks tools;

    public CheckAgentSetupService(WorkflowRepository workflows, WorkflowRunRepository runs, OutboundReadiness telephony,
            ToolChecks tools) {
        this.workflows = workflows;
        this.runs = runs;
        this.telephony = telephony;
        this.tools = tools;
    }

    @Override
    public Uni<AgentSetup> checklist(Principal principal, long workflowId) {
        long org = principal.organizationId();
        return Workflows.find(workflows, org, workflowId).chain(workflow -> Uni.combine().all()
                .unis(workflows.triggerPathsInUse(org, workflowId), telephony.blockedReason(org),
                        runs.recent(org, workflowId, 1), tools.check(org, workflow.published().definition()))
                .with((inUse, blocked, recent, toolErrors) -> {
                    List<WorkflowError> errors = new ArrayList<>(WorkflowValidator.validate(
                            workflow.published().definition(), inUse));
                    errors.addAll(toolErrors);
                    return AgentSetup.of(workflowId, List.of(
                            new AgentSetup.Step("published_version_valid", "Published version is valid", errors.isEmpty(),
                                    errors.isEmpty() ? "Version " + workflow.published().versionNumber() + " passes validation"
                                            : errors.size() + " problem(s), first: " + errors.getFirst().message()),
                            new AgentSetup.Step("telephony_ready", "Telephony is ready for outbound calls",
                                    blocked.isEmpty(), blocked.orElse("An active telephony configuration is ready")),
                            new AgentSetup.Step("test_run_exists", "The agent has been tried in a test run",
                                    !recent.isEmpty(), recent.isEmpty() ? "Start a test run from the editor"
                                            : "Last run: " + recent.getFirst().createdAt())));
                }));
    }
}
