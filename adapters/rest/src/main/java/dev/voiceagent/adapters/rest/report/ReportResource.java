package dev.voiceagent.adapters.rest.report;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import dev.voiceagent.application.report.ReportUseCases;
import dev.voiceagent.domain.usage.DailyReport;
import io.smallrye.mutiny.Uni;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/**
 * Daily reports of the organization's runs (reference 6.12): a calendar day in an IANA time zone, optionally one
 * workflow (another organization's is a 404). Percentages have two decimals and add up to exactly 100.
 */
@Path("/api/v1/organizations/reports")
public class ReportResource {

    @Schema(name = "DailyReportResponse")
    public record DailyReportResponse(@Schema(required = true) String date, @Schema(required = true) String timezone,
            @Schema(required = true, nullable = true) Long workflowId,
            @Schema(required = true, description = "total_runs and xfer_count") Map<String, Long> metrics,
            @Schema(required = true, description = "{disposition, count, percentage}, the five most frequent and"
                    + " \"Other\"") List<Map<String, Object>> dispositionDistribution,
            @Schema(required = true, description = "{bucket, range_start, range_end, count, percentage}")
            List<Map<String, Object>> callDurationDistribution) {

        static DailyReportResponse of(DailyReport r) {
            Map<String, Long> metrics = new LinkedHashMap<>();
            metrics.put("total_runs", r.totalRuns());
            metrics.put("xfer_count", r.transfers());
            return new DailyReportResponse(r.date().toString(), r.timezone(), r.workflowId(), metrics,
                    r.dispositions().stream().map(s -> entry("disposition", s.disposition(), "count", s.count(),
                            "percentage", s.percentage())).toList(),
                    r.durations().stream().map(b -> {
                        Map<String, Object> m = entry("bucket", b.bucket(), "range_start", b.rangeStart(),
                                "range_end", b.rangeEnd());
                        m.put("count", b.count());
                        m.put("percentage", b.percentage());
                        return m;
                    }).toList());
        }

        private static Map<String, Object> entry(String k1, Object v1, String k2, Object v2, String k3, Object v3) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(k1, v1);
            m.put(k2, v2);
            m.put(k3, v3);
            return m;
        }
    }

    @Schema(name = "WorkflowOption")
    public record WorkflowOption(@Schema(required = true) long id, @Schema(required = true) String name) {
    }

    @Schema(name = "WorkflowRunDetail")
    public record WorkflowRunDetail(@Schema(required = true) String phoneNumber,
            @Schema(required = true) String disposition, @Schema(required = true) double durationSeconds,
            @Schema(required = true) long workflowId, @Schema(required = true) long runId,
            @Schema(required = true) String workflowName, @Schema(required = true) String createdAt) {
    }

    private final Caller caller;
    private final ReportUseCases.GetDailyReportUseCase getDailyReport;
    private final ReportUseCases.ListReportWorkflowsUseCase listReportWorkflows;
    private final ReportUseCases.ListDailyReportRunsUseCase listDailyReportRuns;

    public ReportResource(Caller caller, ReportUseCases.GetDailyReportUseCase getDailyReport,
            ReportUseCases.ListReportWorkflowsUseCase listReportWorkflows,
            ReportUseCases.ListDailyReportRunsUseCase listDailyReportRuns) {
        this.caller = caller;
        this.getDailyReport = getDailyReport;
        this.listReportWorkflows = listReportWorkflows;
        this.listDailyReportRuns = listDailyReportRuns;
    }

    @GET
    @Path("/daily")
    @Operation(summary = "Get Daily Report", description = "Totals, transfers, dispositions and call durations of"
            + " the runs created on a day in a time zone")
    public Uni<DailyReportResponse> daily(
            @Parameter(description = "Date in YYYY-MM-DD format", required = true,
                    schema = @Schema(type = SchemaType.STRING, examples = "2026-06-10"))
            @QueryParam("date") @NotNull
            String date,
            @Parameter(description = "IANA timezone (e.g., 'America/New_York')", required = true,
                    schema = @Schema(type = SchemaType.STRING, examples = "America/New_York"))
            @QueryParam("timezone") @NotNull String timezone,
            @Parameter(description = "Optional workflow ID to filter by") @QueryParam("workflow_id") Long workflowId) {
        return getDailyReport.daily(caller.principal(), date(date), zone(timezone), workflowId)
                .map(DailyReportResponse::of);
    }

    @GET
    @Path("/workflows")
    @Operation(summary = "Get Workflow Options", description = "The organization's workflows, for the report's"
            + " filter")
    public Uni<List<WorkflowOption>> workflows() {
        return listReportWorkflows.workflows(caller.principal())
                .map(list -> list.stream().map(w -> new WorkflowOption(w.id(), w.name())).toList());
    }

    @GET
    @Path("/daily/runs")
    @Operation(summary = "Get Daily Runs Detail", description = "The runs created on a day in a time zone, oldest"
            + " first")
    public Uni<List<WorkflowRunDetail>> dailyRuns(
            @Parameter(description = "Date in YYYY-MM-DD format", required = true,
                    schema = @Schema(type = SchemaType.STRING, examples = "2026-06-10"))
            @QueryParam("date") @NotNull
            String date,
            @Parameter(description = "IANA timezone (e.g., 'America/New_York')", required = true,
                    schema = @Schema(type = SchemaType.STRING, examples = "America/New_York"))
            @QueryParam("timezone") @NotNull String timezone,
            @Parameter(description = "Optional workflow ID to filter by") @QueryParam("workflow_id") Long workflowId) {
        return listDailyReportRuns.dailyRuns(caller.principal(), date(date), zone(timezone), workflowId)
                .map(list -> list.stream().map(r -> new WorkflowRunDetail(r.phoneNumber(), r.disposition(),
                        r.durationSeconds(), r.workflowId(), r.runId(), r.workflowName(),
                        r.createdAt().toString())).toList());
    }

    private static LocalDate date(String value) {
        try {
            return LocalDate.parse(value);
        } catch (DateTimeParseException e) {
            throw new RequestValidationException(ValidationError.of(List.of("query", "date"),
                    "Input should be a date in YYYY-MM-DD format", "date_parsing", value));
        }
    }

    private static ZoneId zone(String value) {
        try {
            return ZoneId.of(value);
        } catch (DateTimeException e) {
            throw new RequestValidationException(ValidationError.of(List.of("query", "timezone"),
                    "Input should be an IANA time zone such as America/New_York", "timezone", value));
        }
    }
}
