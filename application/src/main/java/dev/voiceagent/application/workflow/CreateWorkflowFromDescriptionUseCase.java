package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

/** create/template: a starter workflow written from a description (offline; a model-backed generator can come later). */
public interface CreateWorkflowFromDescriptionUseCase {

    Uni<WorkflowDetails> create(Principal principal, String callType, String useCase, String activityDescription);
}
