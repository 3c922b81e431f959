package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.domain.qa.QaNode;
import dev.voiceagent.domain.tool.NodeWebhook;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.webhook.WebhookEvent.RunCompleted;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;

/**
 * The run.completed event of a run that has just completed, with the webhook nodes ({@link NodeWebhook#triggered})
 * and QA reviews ({@link QaNode#triggered}) of its definition that the completion triggers. Every path that
 * completes a run (a call's final report, a failed dial, a text chat's end) asks here, and hands the result to the
 * port method that commits the completion.
 */
@Singleton
public class RunCompletions {

    private final WorkflowRepository workflows;

    public RunCompletions(WorkflowRepository workflows) {
        this.workflows = workflows;
    }

    /** No event unless {@code after} is completed and the run was not before. */
    public Uni<List<WebhookEvent>> events(boolean wasCompleted, WorkflowRun after, Instant at) {
        if (wasCompleted || !after.completed()) {
            return Uni.createFrom().item(List.of());
        }
        return workflows.findVersion(after.organizationId(), after.workflowId(), after.definitionId())
                .map(version -> List.of(new RunCompleted(at, after,
                        version.map(v -> NodeWebhook.triggered(v.definition())).orElse(List.of()),
                        version.map(v -> QaNode.triggered(v.definition())).orElse(List.of()))));
    }
}
