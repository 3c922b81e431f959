package dev.voiceagent.adapters.rest.campaign;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.RetryConfig;
import dev.voiceagent.domain.campaign.ScheduleConfig;
import dev.voiceagent.domain.campaign.TimeSlot;
import jakarta.validation.Valid;
import jakarta.validation.constraints.AssertTrue;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import jakarta.validation.constraints.Size;
import java.util.List;

/**
 * Campaign request bodies with the reference's ranges (422 when out of range). A partly given
 * retry block is completed from the defaults the engine uses, so reporting and behaviour agree.
 */
public final class CampaignRequests {

    private CampaignRequests() {
    }

    public record RetryConfigRequest(Boolean enabled, @Min(0) @Max(10) Integer maxRetries,
            @Min(30) @Max(3600) Integer retryDelaySeconds, Boolean retryOnBusy, Boolean retryOnNoAnswer,
            Boolean retryOnVoicemail) {
    }

    public record TimeSlotRequest(@NotNull @Min(0) @Max(6) Integer dayOfWeek,
            @NotNull @Pattern(regexp = "\\d{2}:\\d{2}") @Schema(examples = "09:00") String startTime,
            @NotNull @Pattern(regexp = "\\d{2}:\\d{2}") @Schema(examples = "17:00") String endTime) {
    }

    public record ScheduleConfigRequest(Boolean enabled, String timezone,
            @NotNull @Size(min = 1, max = 50) List<@Valid @NotNull TimeSlotRequest> slots) {
    }

    public record CircuitBreakerConfigRequest(Boolean enabled, @DecimalMin("0.0") @DecimalMax("1.0") Double failureThreshold,
            @Min(30) @Max(600) Integer windowSeconds, @Min(1) @Max(100) Integer minCallsInWindow) {
    }

    public record CreateCampaignRequest(@NotBlank @Size(max = 255) String name, @NotNull Long workflowId,
            @NotNull @Pattern(regexp = "^csv$", message = "String should match pattern '^csv$'") String sourceType,
            @NotBlank String sourceId, Long telephonyConfigurationId, @Valid RetryConfigRequest retryConfig,
            @Min(1) @Max(100) Integer maxConcurrency, @Valid ScheduleConfigRequest scheduleConfig,
            @Valid CircuitBreakerConfigRequest circuitBreaker) {
    }

    /** PATCH: every field optional; the workflow, source and telephony configuration cannot change. */
    public record UpdateCampaignRequest(@Size(min = 1, max = 255) String name, @Valid RetryConfigRequest retryConfig,
            @Min(1) @Max(100) Integer maxConcurrency, @Valid ScheduleConfigRequest scheduleConfig,
            @Valid CircuitBreakerConfigRequest circuitBreaker) {
    }

    /** Each flag defaults to true; at least one must be true (422 otherwise). */
    public record RedialCampaignRequest(@Size(min = 1, max = 255) String name, Boolean retryOnVoicemail,
            Boolean retryOnNoAnswer, Boolean retryOnBusy, @Valid RetryConfigRequest retryConfig) {

        @AssertTrue(message = "At least one of retry_on_voicemail, retry_on_no_answer"
                + " and retry_on_busy must be true")
        @JsonIgnore
        public boolean isAnyOutcomeSelected() {
            return voicemail() || noAnswer() || busy();
        }

        public boolean voicemail() {
            return retryOnVoicemail == null || retryOnVoicemail;
        }

        public boolean noAnswer() {
            return retryOnNoAnswer == null || retryOnNoAnswer;
        }

        public boolean busy() {
            return retryOnBusy == null || retryOnBusy;
        }
    }

    static RetryConfig retry(RetryConfigRequest r) {
        if (r == null) {
            return null;
        }
        RetryConfig d = RetryConfig.DEFAULT;
        return new RetryConfig(or(r.enabled(), d.enabled()), or(r.maxRetries(), d.maxRetries()),
                or(r.retryDelaySeconds(), d.retryDelaySeconds()), or(r.retryOnBusy(), d.retryOnBusy()),
                or(r.retryOnNoAnswer(), d.retryOnNoAnswer()), or(r.retryOnVoicemail(), d.retryOnVoicemail()));
    }

    static ScheduleConfig schedule(ScheduleConfigRequest s) {
        if (s == null) {
            return null;
        }
        return new ScheduleConfig(or(s.enabled(), true), ScheduleConfig.zone(s.timezone() == null ? "UTC" : s.timezone()),
                s.slots().stream().map(slot -> TimeSlot.of(slot.dayOfWeek(), slot.startTime(), slot.endTime())).toList());
    }

    static CircuitBreakerConfig breaker(CircuitBreakerConfigRequest b) {
        if (b == null) {
            return null;
        }
        return new CircuitBreakerConfig(or(b.enabled(), true), or(b.failureThreshold(), 0.5), or(b.windowSeconds(), 120),
                or(b.minCallsInWindow(), 5));
    }

    private static <T> T or(T value, T fallback) {
        return value == null ? fallback : value;
    }
}
