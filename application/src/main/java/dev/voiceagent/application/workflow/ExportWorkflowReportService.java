package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Instant;

/** The CSV report, row by row from a database cursor: memory stays flat however many runs there are. */
@Singleton
public class ExportWorkflowReportService implements ExportWorkflowReportUseCase {

    private final WorkflowRepository workflows;
    private final WorkflowRunRepository runs;

    public ExportWorkflowReportService(WorkflowRepository workflows, WorkflowRunRepository runs) {
        this.workflows = workflows;
        this.runs = runs;
    }

    @Override
    public Uni<Multi<String>> export(Principal principal, long workflowId, Instant from, Instant to) {
        long org = principal.organizationId();
        return Workflows.find(workflows, org, workflowId)
                .chain(w -> runs.reportVariables(org, workflowId, from, to))
                .map(variables -> RunReportStream.csv(variables, runs.reportRuns(org, workflowId, from, to)));
    }
}
