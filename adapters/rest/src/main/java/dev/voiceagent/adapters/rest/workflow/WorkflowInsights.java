package dev.voiceagent.adapters.rest.workflow;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.workflow.AgentPreview;
import dev.voiceagent.application.workflow.PreviewAgentUseCase;
import dev.voiceagent.application.workflow.AgentSetup;
import dev.voiceagent.application.workflow.CheckAgentSetupUseCase;
import dev.voiceagent.application.workflow.ExportWorkflowReportUseCase;
import dev.voiceagent.application.workflow.PilotReview;
import dev.voiceagent.application.workflow.ReviewPilotRunsUseCase;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jboss.resteasy.reactive.RestMulti;

/** The workflow operations that summarise rather than edit: report, setup checklist, preview, pilot review. */
@ApplicationScoped
public class WorkflowInsights {

    public record AgentSetupStepResponse(String key, String title, boolean done, String detail) {
    }

    public record AgentSetupResponse(long workflowId, boolean ready, List<AgentSetupStepResponse> steps) {
    }

    public record AgentPreviewRequest(Map<String, Object> contextVariables) {
    }

    public record NodePromptResponse(String nodeId, String nodeType, String nodeName, String prompt) {
    }

    public record AgentPreviewResponse(long workflowId, int versionNumber, String greeting,
            List<NodePromptResponse> prompts, Set<String> unresolvedVariables) {
    }

    public record PilotProblemResponse(long runId, Instant createdAt, String problem) {
    }

    public record PilotReviewResponse(long workflowId, int runCount, int completedCount, Map<String, Long> dispositions,
            Double averageDurationSeconds, int failures, List<PilotProblemResponse> recentProblems) {
    }

    private final ExportWorkflowReportUseCase export;
    private final CheckAgentSetupUseCase setup;
    private final PreviewAgentUseCase preview;
    private final ReviewPilotRunsUseCase pilot;

    public WorkflowInsights(ExportWorkflowReportUseCase export, CheckAgentSetupUseCase setup, PreviewAgentUseCase preview,
            ReviewPilotRunsUseCase pilot) {
        this.export = export;
        this.setup = setup;
        this.preview = preview;
        this.pilot = pilot;
    }

    RestMulti<String> report(Principal principal, long workflowId, String startDate, String endDate) {
        Instant from = ReportDownloads.date("start_date", startDate, false);
        Instant to = ReportDownloads.date("end_date", endDate, true);
        return ReportDownloads.csvAttachment(export.export(principal, workflowId, from, to),
                "workflow_" + workflowId + "_report.csv");
    }

    Uni<AgentSetupResponse> agentSetup(Principal principal, long workflowId) {
        return setup.checklist(principal, workflowId).map((AgentSetup s) -> new AgentSetupResponse(s.workflowId(),
                s.ready(), s.steps().stream().map(st -> new AgentSetupStepResponse(st.key(), st.title(), st.done(),
                        st.detail())).toList()));
    }

    Uni<AgentPreviewResponse> agentPreview(Principal principal, long workflowId, AgentPreviewRequest body) {
        return preview.preview(principal, workflowId, body == null ? null : body.contextVariables())
                .map((AgentPreview p) -> new AgentPreviewResponse(p.workflowId(), p.versionNumber(), p.greeting(),
                        p.prompts().stream().map(n -> new NodePromptResponse(n.nodeId(), n.nodeType(), n.nodeName(),
                                n.prompt())).toList(), p.unresolvedVariables()));
    }

    Uni<PilotReviewResponse> pilotReview(Principal principal, long workflowId) {
        return pilot.review(principal, workflowId).map((PilotReview r) -> new PilotReviewResponse(r.workflowId(),
                r.runCount(), r.completedCount(), r.dispositions(), r.averageDurationSeconds(), r.failures(),
                r.recentProblems().stream().map(p -> new PilotProblemResponse(p.runId(), p.createdAt(), p.problem()))
                        .toList()));
    }

    /** ISO date-time with offset, or a plain date (start of day, or end of day for end_date), in UTC. */
}
