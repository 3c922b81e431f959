package dev.voiceagent.adapters.postgres.campaign;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.voiceagent.adapters.postgres.shared.JsonColumns;
import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.RetryConfig;
import dev.voiceagent.domain.campaign.ScheduleConfig;
import dev.voiceagent.domain.campaign.TimeSlot;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored JSON forms of a campaign's nested configurations (the same field names as the API):
 * written as the PG client's JsonObjects, read back from the column's text (column::text) by one
 * streaming reader, for the list and the dispatcher alike.
 */
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

    // Read field by field: an absent field takes the configuration's default, an unknown one is skipped
    // (rows written by older versions, or by newer ones during a rolling update).

    static RetryConfig retry(String text) {
        RetryConfig d = RetryConfig.DEFAULT;
        var v = new Object() {
            boolean enabled = d.enabled();
            int maxRetries = d.maxRetries();
            int delay = d.retryDelaySeconds();
            boolean busy = d.retryOnBusy();
            boolean noAnswer = d.retryOnNoAnswer();
            boolean voicemail = d.retryOnVoicemail();
        };
        readObject(text, (name, p) -> {
            switch (name) {
                case "enabled" -> v.enabled = p.getValueAsBoolean(v.enabled);
                case "max_retries" -> v.maxRetries = p.getValueAsInt(v.maxRetries);
                case "retry_delay_seconds" -> v.delay = p.getValueAsInt(v.delay);
                case "retry_on_busy" -> v.busy = p.getValueAsBoolean(v.busy);
                case "retry_on_no_answer" -> v.noAnswer = p.getValueAsBoolean(v.noAnswer);
                case "retry_on_voicemail" -> v.voicemail = p.getValueAsBoolean(v.voicemail);
                default -> p.skipChildren();
            }
        });
        return new RetryConfig(v.enabled, v.maxRetries, v.delay, v.busy, v.noAnswer, v.voicemail);
    }

    static ScheduleConfig schedule(String text) {
        if (text == null || text.equals("null")) {
            return null;
        }
        var v = new Object() {
            boolean enabled = false;
            String timezone = "UTC";
            final List<TimeSlot> slots = new ArrayList<>();
        };
        readObject(text, (name, p) -> {
            switch (name) {
                case "enabled" -> v.enabled = p.getValueAsBoolean(v.enabled);
                case "timezone" -> v.timezone = p.currentToken() == JsonToken.VALUE_NULL ? v.timezone : p.getText();
                case "slots" -> {
                    if (p.currentToken() != JsonToken.START_ARRAY) {
                        p.skipChildren();
                        return;
                    }
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        v.slots.add(slot(p));
                    }
                }
                default -> p.skipChildren();
            }
        });
        return new ScheduleConfig(v.enabled, ScheduleConfig.zone(v.timezone), v.slots);
    }

    private static TimeSlot slot(JsonParser parser) throws IOException {
        var v = new Object() {
            Integer day;
            String start;
            String end;
        };
        readFields(parser, (name, p) -> {
            switch (name) {
                case "day_of_week" -> v.day = p.getIntValue();
                case "start_time" -> v.start = p.getValueAsString();
                case "end_time" -> v.end = p.getValueAsString();
                default -> p.skipChildren();
            }
        });
        if (v.day == null) {
            throw new IOException("a schedule slot without day_of_week");
        }
        return TimeSlot.of(v.day, v.start, v.end);
    }

    static CircuitBreakerConfig breaker(String text) {
        if (text == null || text.equals("null")) {
            return null;
        }
        CircuitBreakerConfig d = CircuitBreakerConfig.NONE;
        var v = new Object() {
            boolean enabled = d.enabled();
            double threshold = d.failureThreshold();
            int window = d.windowSeconds();
            int minCalls = d.minCallsInWindow();
        };
        readObject(text, (name, p) -> {
            switch (name) {
                case "enabled" -> v.enabled = p.getValueAsBoolean(v.enabled);
                case "failure_threshold" -> v.threshold = p.getValueAsDouble(v.threshold);
                case "window_seconds" -> v.window = p.getValueAsInt(v.window);
                case "min_calls_in_window" -> v.minCalls = p.getValueAsInt(v.minCalls);
                default -> p.skipChildren();
            }
        });
        return new CircuitBreakerConfig(v.enabled, v.threshold, v.window, v.minCalls);
    }

    /** Reads one field's value; the parser stands on the value's first token. */
    @FunctionalInterface
    private interface FieldReader {
        void read(String name, JsonParser p) throws IOException;
    }

    /** The fields of the JSON object that is the whole text, one by one. */
    private static void readObject(String text, FieldReader field) {
        try (JsonParser p = JsonColumns.parser(text)) {
            if (p.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("expected a JSON object, got " + p.currentToken());
            }
            readFields(p, field);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The fields of the object the parser has just entered, up to its end. */
    private static void readFields(JsonParser p, FieldReader field) throws IOException {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            field.read(name, p);
        }
    }
}
