package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Instant;

public interface ExportWorkflowReportUseCase {

    /** Resolves once the workflow is found (else 404); the stream yields the CSV lines, header first. */
    Uni<Multi<String>> export(Principal principal, long workflowId, Instant from, Instant to);
}
