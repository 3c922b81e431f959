package dev.voiceagent.application.report;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.report.ReportRepository.RunDetail;
import dev.voiceagent.application.report.ReportRepository.WorkflowOption;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.usage.DailyReport;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/** The day is the zone's calendar day (23 or 25 hours across a daylight-saving change); a workflow is checked first. */
@Singleton
public class ReportService implements ReportUseCases.GetDailyReportUseCase, ReportUseCases.ListReportWorkflowsUseCase,
        ReportUseCases.ListDailyReportRunsUseCase {

    private final ReportRepository reports;
    private final WorkflowRepository workflows;

    public ReportService(ReportRepository reports, WorkflowRepository workflows) {
        this.reports = reports;
        this.workflows = workflows;
    }

    @Override
    public Uni<DailyReport> daily(Principal principal, LocalDate date, ZoneId zone, Long workflowId) {
        long org = principal.organizationId();
        Instant[] window = DailyReport.window(date, zone);
        return owned(org, workflowId).chain(() -> reports.day(org, window[0], window[1], workflowId))
                .map(c -> DailyReport.of(date, zone.getId(), workflowId, c.totalRuns(), c.transfers(),
                        c.dispositions(), c.buckets()));
    }

    @Override
    public Uni<List<WorkflowOption>> workflows(Principal principal) {
        return reports.workflows(principal.organizationId());
    }

    @Override
    public Uni<List<RunDetail>> dailyRuns(Principal principal, LocalDate date, ZoneId zone, Long workflowId) {
        long org = principal.organizationId();
        Instant[] window = DailyReport.window(date, zone);
        return owned(org, workflowId).chain(() -> reports.runs(org, window[0], window[1], workflowId));
    }

    private Uni<Void> owned(long org, Long workflowId) {
        if (workflowId == null) {
            return Uni.createFrom().voidItem();
        }
        return workflows.find(org, workflowId).invoke(found -> {
            if (found.isEmpty()) {
                throw new ResourceNotFoundException("Workflow not found");
            }
        }).replaceWithVoid();
    }
}
