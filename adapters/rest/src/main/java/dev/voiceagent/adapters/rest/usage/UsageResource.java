package dev.voiceagent.adapters.rest.usage;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.shared.PublicBaseUrl;
import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import dev.voiceagent.adapters.rest.usage.UsageResponses.CurrentUsageResponse;
import dev.voiceagent.adapters.rest.usage.UsageResponses.DailyUsageBreakdownResponse;
import dev.voiceagent.adapters.rest.usage.UsageResponses.MPSBillingCreditsResponse;
import dev.voiceagent.adapters.rest.usage.UsageResponses.UsageHistoryResponse;
import dev.voiceagent.adapters.rest.usage.UsageResponses.WorkflowRunUsageResponse;
import dev.voiceagent.adapters.rest.workflow.ReportDownloads;
import dev.voiceagent.application.usage.UsageRepository.UsageRunQuery;
import dev.voiceagent.application.usage.UsageUseCases;
import dev.voiceagent.application.workflow.RunArtifactUseCases.PublicArtifactLinksUseCase;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.usage.UsageRunFilter;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.jboss.resteasy.reactive.RestMulti;

/**
 * The organization's metered usage (reference 6.11): the current month, a daily breakdown in the organization's
 * time zone, the metered runs with their totals and as a CSV report, and the credit ledger.
 */
@Path("/api/v1/organizations")
public class UsageResource {

    static final String FILTERS = "JSON-encoded array of {attribute, type, value}: runId/workflowId/campaignId"
            + " (number {value}), callerNumber/calledNumber (text {value}, substring), dispositionCode (multiSelect"
            + " {codes}), duration (numberRange {min, max}, seconds, inclusive), callDirection (radio {status:"
            + " inbound|outbound}), callChannel (radio {status: telephony|web|chat}). Unknown attributes and types"
            + " are ignored.";

    private final Caller caller;
    private final UsageUseCases.GetCurrentUsageUseCase getCurrentUsage;
    private final UsageUseCases.GetDailyUsageUseCase getDailyUsage;
    private final UsageUseCases.ListUsageRunsUseCase listUsageRuns;
    private final UsageUseCases.ExportUsageReportUseCase exportUsageReport;
    private final UsageUseCases.ListCreditEntriesUseCase listCreditEntries;
    private final ObjectMapper json;
    private final PublicArtifactLinksUseCase links;
    private final PublicBaseUrl publicBaseUrl;

    @Context
    HttpServerRequest request;

    public UsageResource(Caller caller, UsageUseCases.GetCurrentUsageUseCase getCurrentUsage,
            UsageUseCases.GetDailyUsageUseCase getDailyUsage, UsageUseCases.ListUsageRunsUseCase listUsageRuns,
            UsageUseCases.ExportUsageReportUseCase exportUsageReport,
            UsageUseCases.ListCreditEntriesUseCase listCreditEntries, ObjectMapper json,
            PublicArtifactLinksUseCase links,
            PublicBaseUrl publicBaseUrl) {
        this.caller = caller;
        this.getCurrentUsage = getCurrentUsage;
        this.getDailyUsage = getDailyUsage;
        this.listUsageRuns = listUsageRuns;
        this.exportUsageReport = exportUsageReport;
        this.listCreditEntries = listCreditEntries;
        this.json = json;
        this.links = links;
        this.publicBaseUrl = publicBaseUrl;
    }

    @GET
    @Path("/usage/current-period")
    @Operation(summary = "Get Current Period Usage", description = "The calendar month in UTC: metered seconds,"
            + " tokens (cents) and, when a price is in force, the amount in USD")
    public Uni<CurrentUsageResponse> currentPeriod() {
        return getCurrentUsage.currentPeriod(caller.principal()).map(CurrentUsageResponse::of);
    }

    @GET
    @Path("/usage/daily-breakdown")
    @Operation(summary = "Get Daily Usage Breakdown", description = "The last days in the organization's time zone"
            + " (preferences; UTC by default), oldest first, every day present")
    public Uni<DailyUsageBreakdownResponse> dailyBreakdown(
            @Parameter(description = "Number of days to include") @QueryParam("days") @DefaultValue("7") @Min(1)
            @Max(30) int days) {
        return getDailyUsage.dailyBreakdown(caller.principal(), days).map(DailyUsageBreakdownResponse::of);
    }

    @GET
    @Path("/usage/runs")
    @Operation(summary = "Get Usage History", description = "Metered runs, newest first by default, with the totals"
            + " of every matching run")
    public Uni<UsageHistoryResponse> runs(
            @Parameter(description = "ISO 8601 date-time (UTC); lower bound (inclusive) on created_at")
            @QueryParam("start_date") String startDate,
            @Parameter(description = "ISO 8601 date-time (UTC); upper bound (inclusive) on created_at")
            @QueryParam("end_date") String endDate,
            @QueryParam("page") @DefaultValue("1") @Min(1) int page,
            @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(100) int limit,
            @Parameter(description = FILTERS) @QueryParam("filters") String filters,
            @Parameter(description = "duration, or created_at (the default)") @QueryParam("sort_by") String sortBy,
            @QueryParam("sort_order") @DefaultValue("desc") String sortOrder) {
        UsageRunQuery query = query(startDate, endDate, filters, sortBy, sortOrder, page, limit);
        String base = publicBaseUrl.of(request);
        return listUsageRuns.runs(caller.principal(), query).map(result -> new UsageHistoryResponse(
                result.runs().stream().map(u -> WorkflowRunUsageResponse.of(u, links.tokens(u.run()), base)).toList(),
                BigDecimal.valueOf(result.totalChargeMinor()), result.totalSeconds(), result.totalCount(), page, limit,
                (result.totalCount() + limit - 1) / limit));
    }

    @GET
    @Path("/usage/runs/report")
    @Produces("text/csv")
    @Operation(summary = "Download Usage Runs Report", description = "The matching runs as CSV (the run report's"
            + " columns), streamed")
    public RestMulti<String> report(@QueryParam("start_date") String startDate,
            @QueryParam("end_date") String endDate,
            @Parameter(description = FILTERS) @QueryParam("filters") String filters) {
        UsageRunQuery query = query(startDate, endDate, filters, null, "desc", 1, 1);
        String stamp = DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss").withZone(ZoneOffset.UTC).format(Instant.now());
        return ReportDownloads.csvAttachment(exportUsageReport.report(caller.principal(), query), "usage_runs_" + stamp + ".csv");
    }

    @GET
    @Path("/billing/credits")
    @Operation(summary = "Get Billing Credits", description = "The credit account (one credit is one cent) and its"
            + " ledger, newest entries first")
    public Uni<MPSBillingCreditsResponse> credits(@QueryParam("page") @DefaultValue("1") @Min(1) int page,
            @QueryParam("limit") @DefaultValue("50") @Min(1) @Max(100) int limit) {
        return listCreditEntries.credits(caller.principal(), page, limit).map(p -> MPSBillingCreditsResponse.of(p, page, limit));
    }

    private UsageRunQuery query(String startDate, String endDate, String filters, String sortBy, String sortOrder,
            int page, int limit) {
        Instant from = ReportDownloads.date("start_date", startDate, false);
        Instant to = ReportDownloads.date("end_date", endDate, true);
        boolean byDuration = switch (sortBy == null || sortBy.isBlank() ? "created_at" : sortBy) {
            case "created_at" -> false;
            case "duration" -> true;
            default -> throw new RequestValidationException(ValidationError.of(List.of("query", "sort_by"),
                    "Input should be 'created_at' or 'duration'", "enum", sortBy));
        };
        boolean ascending = switch (sortOrder) {
            case "asc" -> true;
            case "desc" -> false;
            default -> throw new RequestValidationException(ValidationError.of(List.of("query", "sort_order"),
                    "String should match pattern '^(asc|desc)$'", "string_pattern_mismatch", sortOrder));
        };
        return new UsageRunQuery(from, to, UsageRunFilter.parse(filters(filters)), byDuration, ascending, page, limit);
    }

    private List<Object> filters(String filters) {
        if (filters == null || filters.isBlank()) {
            return List.of();
        }
        try {
            if (json.readValue(filters, Object.class) instanceof List<?> list) {
                return new ArrayList<>(list);
            }
        } catch (JsonProcessingException e) {
            // refused below
        }
        throw new DomainRuleViolation("Invalid filters format");
    }
}
