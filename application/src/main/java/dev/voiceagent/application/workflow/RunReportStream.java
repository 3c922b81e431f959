package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.workflow.RunReport;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Multi;
import java.util.List;

/** A run report as CSV lines: the header, then one line per run as the runs stream in. */
public final class RunReportStream {

    private RunReportStream() {
    }

    public static Multi<String> csv(List<String> variables, Multi<WorkflowRun> runs) {
        return Multi.createBy().concatenating().streams(
                Multi.createFrom().item(RunReport.csvLine(RunReport.header(variables))),
                runs.map(run -> RunReport.csvLine(RunReport.row(run, variables))));
    }
}
