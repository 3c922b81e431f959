package dev.voiceagent.application.report;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.report.ReportRepository.RunDetail;
import dev.voiceagent.application.report.ReportRepository.WorkflowOption;
import dev.voiceagent.domain.usage.DailyReport;
import io.smallrye.mutiny.Uni;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

/** Daily reports of an organization's runs in a time zone (reference 6.12). */
public interface ReportUseCases {

    interface GetDailyReportUseCase {

        Uni<DailyReport> daily(Principal principal, LocalDate date, ZoneId zone, Long workflowId);
    }

    interface ListReportWorkflowsUseCase {

        Uni<List<WorkflowOption>> workflows(Principal principal);
    }

    interface ListDailyReportRunsUseCase {

        Uni<List<RunDetail>> dailyRuns(Principal principal, LocalDate date, ZoneId zone, Long workflowId);
    }
}
