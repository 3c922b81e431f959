package dev.voiceagent.adapters.rest.campaign;

import dev.voiceagent.application.campaign.CampaignView;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.CampaignProgress;
import dev.voiceagent.domain.campaign.DispatchStatus;
import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.RetryConfig;
import dev.voiceagent.domain.campaign.ScheduleConfig;
import dev.voiceagent.domain.campaign.TimeSlot;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The campaign wire shapes of spec section 2, by their public schema names. Required fields are
 * always written (nullable ones as null); optional ones carry the spec's defaults.
 */
public final class CampaignResponses {

    private CampaignResponses() {
    }

    @Schema(name = "CampaignsResponse", title = "CampaignsResponse")
    public record CampaignsResponse(@Schema(required = true, title = "Campaigns") List<CampaignResponse> campaigns) {

        public static CampaignsResponse of(List<CampaignView> views) {
            return new CampaignsResponse(views.stream().map(CampaignResponse::of).toList());
        }
    }

    @Schema(name = "CampaignResponse", title = "CampaignResponse")
    public record CampaignResponse(
            @Schema(required = true, title = "Id") long id,
            @Schema(required = true, title = "Name") String name,
            @Schema(required = true, title = "Workflow Id") long workflowId,
            @Schema(required = true, title = "Workflow Name") String workflowName,
            @Schema(required = true, title = "State") String state,
            @Schema(required = true, title = "Source Type") String sourceType,
            @Schema(required = true, title = "Source Id") String sourceId,
            @Schema(required = true, nullable = true, title = "Total Rows") Integer totalRows,
            @Schema(required = true, title = "Processed Rows") int processedRows,
            @Schema(required = true, title = "Failed Rows") int failedRows,
            @Schema(required = true, title = "Created At", format = "date-time", type = SchemaType.STRING, implementation = String.class) Instant createdAt,
            @Schema(required = true, nullable = true, title = "Started At", format = "date-time", type = SchemaType.STRING, implementation = String.class) Instant startedAt,
            @Schema(required = true, nullable = true, title = "Completed At", format = "date-time", type = SchemaType.STRING, implementation = String.class) Instant completedAt,
            @Schema(required = true) RetryConfigResponse retryConfig,
            @Schema(nullable = true, title = "Max Concurrency") Integer maxConcurrency,
            @Schema(nullable = true) ScheduleConfigResponse scheduleConfig,
            @Schema(nullable = true) CircuitBreakerConfigResponse circuitBreaker,
            @Schema(title = "Executed Count", defaultValue = "0") long executedCount,
            @Schema(title = "Total Queued Count", defaultValue = "0") long totalQueuedCount,
            @Schema(nullable = true, title = "Parent Campaign Id") Long parentCampaignId,
            @Schema(nullable = true, title = "Redialed Campaign Id") Long redialedCampaignId,
            @Schema(nullable = true, title = "Telephony Configuration Id") Long telephonyConfigurationId,
            @Schema(nullable = true, title = "Telephony Configuration Name") String telephonyConfigurationName,
            @Schema(title = "Logs") List<CampaignLogEntryResponse> logs) {

        public static CampaignResponse of(CampaignView view) {
            Campaign c = view.campaign();
            return new CampaignResponse(c.id(), c.name(), c.workflowId(), view.workflowName(), c.state().wireName(),
                    c.sourceType(), c.sourceId(), c.totalRows(), c.processedRows(), c.failedRows(), c.createdAt(),
                    c.startedAt(), c.completedAt(), RetryConfigResponse.of(c.retryConfig()), c.maxConcurrency(),
                    ScheduleConfigResponse.of(c.scheduleConfig()), CircuitBreakerConfigResponse.of(c.effectiveCircuitBreaker()),
                    view.executedCount(), view.totalQueuedCount(), c.parentCampaignId(), c.redialedCampaignId(),
                    c.telephonyConfigurationId(), view.telephonyConfigurationName(),
                    c.logs().stream().map(CampaignLogEntryResponse::of).toList());
        }
    }

    @Schema(name = "CampaignProgressResponse", title = "CampaignProgressResponse")
    public record CampaignProgressResponse(
            @Schema(required = true, title = "Campaign Id") long campaignId,
            @Schema(required = true, title = "State") String state,
            @Schema(required = true, title = "Total Rows") int totalRows,
            @Schema(required = true, title = "Processed Rows") long processedRows,
            @Schema(required = true, title = "Failed Calls") long failedCalls,
            @Schema(required = true, title = "Progress Percentage") double progressPercentage,
            @Schema(required = true, title = "Source Sync") Map<String, Object> sourceSync,
            @Schema(required = true, title = "Rate Limit") int rateLimit,
            @Schema(required = true, nullable = true, title = "Started At", format = "date-time", type = SchemaType.STRING, implementation = String.class) Instant startedAt,
            @Schema(required = true, nullable = true, title = "Completed At", format = "date-time", type = SchemaType.STRING, implementation = String.class) Instant completedAt,
            @Schema(title = "Dispatch", description = "Beyond the reference: contacts by state (pending, waiting_retry,"
                    + " dialing), finished contacts by the status of their last call (outcomes), active_calls,"
                    + " window_open / next_window_at (the campaign's calling window, in its time zone),"
                    + " waiting_for_calling_hours / next_calling_hours_at (contacts held back by legal calling hours"
                    + " in their own time zones, and when those open next) and the circuit breaker's current window"
                    + " (calls, failures, rate, tripped).")
            Map<String, Object> dispatch) {

        public static CampaignProgressResponse of(CampaignProgress p, DispatchStatus d) {
            Map<String, Object> sync = new LinkedHashMap<>();
            sync.put("status", p.sourceSync().status());
            sync.put("last_synced_at", p.sourceSync().lastSyncedAt() == null ? null : p.sourceSync().lastSyncedAt().toString());
            sync.put("error", p.sourceSync().error());
            return new CampaignProgressResponse(p.campaignId(), p.state().wireName(), p.totalRows(), p.processedRows(),
                    p.failedCalls(), p.progressPercentage(), sync, p.rateLimit(), p.startedAt(), p.completedAt(),
                    d == null ? null : dispatch(d));
        }

        private static Map<String, Object> dispatch(DispatchStatus d) {
            Map<String, Object> breaker = new LinkedHashMap<>();
            breaker.put("enabled", d.breaker().enabled());
            breaker.put("tripped", d.breaker().tripped());
            breaker.put("calls_in_window", d.breaker().callsInWindow());
            breaker.put("failures_in_window", d.breaker().failuresInWindow());
            breaker.put("failure_rate", d.breaker().failureRate());
            breaker.put("failure_threshold", d.breaker().threshold());
            breaker.put("window_seconds", d.breaker().windowSeconds());
            breaker.put("min_calls_in_window", d.breaker().minCallsInWindow());
            Map<String, Object> out = new LinkedHashMap<>();
            out.put("pending", d.pending());
            out.put("waiting_retry", d.waitingRetry());
            out.put("dialing", d.dialing());
            out.put("outcomes", d.outcomes());
            out.put("active_calls", d.activeCalls());
            out.put("window_open", d.windowOpen());
            out.put("next_window_at", d.nextWindowAt() == null ? null : d.nextWindowAt().toString());
            out.put("waiting_for_calling_hours", d.waitingForCallingHours());
            out.put("next_calling_hours_at", d.nextCallingHoursAt() == null ? null
                    : d.nextCallingHoursAt().toString());
            out.put("circuit_breaker", breaker);
            return out;
        }
    }

    @Schema(name = "RetryConfigResponse", title = "RetryConfigResponse")
    public record RetryConfigResponse(
            @Schema(required = true, title = "Enabled") boolean enabled,
            @Schema(required = true, title = "Max Retries") int maxRetries,
            @Schema(required = true, title = "Retry Delay Seconds") int retryDelaySeconds,
            @Schema(required = true, title = "Retry On Busy") boolean retryOnBusy,
            @Schema(required = true, title = "Retry On No Answer") boolean retryOnNoAnswer,
            @Schema(required = true, title = "Retry On Voicemail") boolean retryOnVoicemail) {

        static RetryConfigResponse of(RetryConfig r) {
            return new RetryConfigResponse(r.enabled(), r.maxRetries(), r.retryDelaySeconds(), r.retryOnBusy(),
                    r.retryOnNoAnswer(), r.retryOnVoicemail());
        }
    }

    @Schema(name = "ScheduleConfigResponse", title = "ScheduleConfigResponse")
    public record ScheduleConfigResponse(
            @Schema(required = true, title = "Enabled") boolean enabled,
            @Schema(required = true, title = "Timezone") String timezone,
            @Schema(required = true, title = "Slots") List<TimeSlotResponse> slots) {

        static ScheduleConfigResponse of(ScheduleConfig s) {
            return s == null ? null : new ScheduleConfigResponse(s.enabled(), s.timezone().getId(),
                    s.slots().stream().map(TimeSlotResponse::of).toList());
        }
    }

    @Schema(name = "TimeSlotResponse", title = "TimeSlotResponse")
    public record TimeSlotResponse(
            @Schema(required = true, title = "Day Of Week") int dayOfWeek,
            @Schema(required = true, title = "Start Time") String startTime,
            @Schema(required = true, title = "End Time") String endTime) {

        static TimeSlotResponse of(TimeSlot slot) {
            return new TimeSlotResponse(slot.dayOfWeek(), slot.startText(), slot.endText());
        }
    }

    @Schema(name = "CircuitBreakerConfigResponse", title = "CircuitBreakerConfigResponse")
    public record CircuitBreakerConfigResponse(
            @Schema(title = "Enabled", defaultValue = "false") boolean enabled,
            @Schema(title = "Failure Threshold", defaultValue = "0.5", type = SchemaType.NUMBER) double failureThreshold,
            @Schema(title = "Window Seconds", defaultValue = "120") int windowSeconds,
            @Schema(title = "Min Calls In Window", defaultValue = "5") int minCallsInWindow) {

        static CircuitBreakerConfigResponse of(CircuitBreakerConfig b) {
            return new CircuitBreakerConfigResponse(b.enabled(), b.failureThreshold(), b.windowSeconds(), b.minCallsInWindow());
        }
    }

    @Schema(name = "CampaignLogEntryResponse", title = "CampaignLogEntryResponse",
            description = "A single timestamped entry from the campaign's append-only log.")
    public record CampaignLogEntryResponse(
            @Schema(required = true, title = "Ts", type = SchemaType.STRING) String ts,
            @Schema(required = true, title = "Level") String level,
            @Schema(required = true, title = "Event") String event,
            @Schema(required = true, title = "Message") String message,
            @Schema(nullable = true, title = "Details", type = SchemaType.OBJECT) Map<String, Object> details) {

        static CampaignLogEntryResponse of(CampaignLogEntry e) {
            return new CampaignLogEntryResponse(e.ts().toString(), e.level().wireName(), e.event(), e.message(), e.details());
        }
    }
}
