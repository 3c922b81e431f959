package dev.voiceagent.adapters.postgres.campaign;

import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.RetryConfig;
import dev.voiceagent.domain.campaign.ScheduleConfig;
import dev.voiceagent.domain.campaign.TimeSlot;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;

/** The JSONB forms of a campaign's nested configurations (the same field names as the API). */
final class CampaignJson {

    private CampaignJson() {
    }

    static JsonObject retry(RetryConfig c) {
        return new JsonObject()
                .put("enabled", c.enabled())
                .put("max_retries", c.maxRetries())
                .put("retry_delay_seconds", c.retryDelaySeconds())
                .put("retry_on_busy", c.retryOnBusy())
                .put("retry_on_no_answer", c.retryOnNoAnswer())
                .put("retry_on_voicemail", c.retryOnVoicemail());
    }

    static RetryConfig retry(JsonObject j) {
        RetryConfig d = RetryConfig.DEFAULT;
        return new RetryConfig(
                j.getBoolean("enabled", d.enabled()),
                j.getInteger("max_retries", d.maxRetries()),
                j.getInteger("retry_delay_seconds", d.retryDelaySeconds()),
                j.getBoolean("retry_on_busy", d.retryOnBusy()),
                j.getBoolean("retry_on_no_answer", d.retryOnNoAnswer()),
                j.getBoolean("retry_on_voicemail", d.retryOnVoicemail()));
    }

    static JsonObject schedule(ScheduleConfig c) {
        if (c == null) {
            return null;
        }
        JsonArray slots = new JsonArray();
        for (TimeSlot slot : c.slots()) {
            slots.add(new JsonObject()
                    .put("day_of_week", slot.dayOfWeek())
                    .put("start_time", slot.startText())
                    .put("end_time", slot.endText()));
        }
        return new JsonObject().put("enabled", c.enabled()).put("timezone", c.timezone().getId()).put("slots", slots);
    }

    static ScheduleConfig schedule(JsonObject j) {
        if (j == null) {
            return null;
        }
        List<TimeSlot> slots = new ArrayList<>();
        for (Object o : j.getJsonArray("slots", new JsonArray())) {
            JsonObject slot = (JsonObject) o;
            slots.add(TimeSlot.of(slot.getInteger("day_of_week"), slot.getString("start_time"), slot.getString("end_time")));
        }
        return new ScheduleConfig(j.getBoolean("enabled", false), ScheduleConfig.zone(j.getString("timezone", "UTC")), slots);
    }

    static JsonObject breaker(CircuitBreakerConfig c) {
        if (c == null) {
            return null;
        }
        return new JsonObject()
                .put("enabled", c.enabled())
                .put("failure_threshold", c.failureThreshold())
                .put("window_seconds", c.windowSeconds())
                .put("min_calls_in_window", c.minCallsInWindow());
    }

    static CircuitBreakerConfig breaker(JsonObject j) {
        if (j == null) {
            return null;
        }
        CircuitBreakerConfig d = CircuitBreakerConfig.NONE;
        return new CircuitBreakerConfig(
                j.getBoolean("enabled", d.enabled()),
                j.getDouble("failure_threshold", d.failureThreshold()),
                j.getInteger("window_seconds", d.windowSeconds()),
                j.getInteger("min_calls_in_window", d.minCallsInWindow()));
    }
}
