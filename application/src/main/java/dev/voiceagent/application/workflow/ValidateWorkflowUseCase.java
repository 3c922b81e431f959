package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.workflow.WorkflowError;
import io.smallrye.mutiny.Uni;
import java.util.List;

/** Validates the draft if there is one, else the published version; an empty list means valid. */
public interface ValidateWorkflowUseCase {

    Uni<List<WorkflowError>> validate(Principal principal, long workflowId);
}
