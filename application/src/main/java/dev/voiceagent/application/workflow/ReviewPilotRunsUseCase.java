package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface ReviewPilotRunsUseCase {

    Uni<PilotReview> review(Principal principal, long workflowId);
}
