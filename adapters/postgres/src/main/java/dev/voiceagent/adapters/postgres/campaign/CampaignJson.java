package dev.voiceagent.adapters.postgres.campaign;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.voiceagent.adapters.postgres.shared.JsonText;

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

    // The same configurations read from the column's text (column::text) with the streaming parser;
    // field by field as above: an absent field takes the same default, an unknown one is skipped.

    static RetryConfig retry(String text) {
        RetryConfig d = RetryConfig.DEFAULT;
        boolean enabled = d.enabled();
        int maxRetries = d.maxRetries();
        int delay = d.retryDelaySeconds();
        boolean busy = d.retryOnBusy();
        boolean noAnswer = d.retryOnNoAnswer();
        boolean voicemail = d.retryOnVoicemail();
        try (JsonParser p = JsonText.parser(text)) {
            expectObject(p);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                switch (name) {
                    case "enabled" -> enabled = p.getValueAsBoolean(enabled);
                    case "max_retries" -> maxRetries = p.getValueAsInt(maxRetries);
                    case "retry_delay_seconds" -> delay = p.getValueAsInt(delay);
                    case "retry_on_busy" -> busy = p.getValueAsBoolean(busy);
                    case "retry_on_no_answer" -> noAnswer = p.getValueAsBoolean(noAnswer);
                    case "retry_on_voicemail" -> voicemail = p.getValueAsBoolean(voicemail);
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new RetryConfig(enabled, maxRetries, delay, busy, noAnswer, voicemail);
    }

    static ScheduleConfig schedule(String text) {
        if (text == null) {
            return null;
        }
        boolean enabled = false;
        String timezone = "UTC";
        List<TimeSlot> slots = new ArrayList<>();
        try (JsonParser p = JsonText.parser(text)) {
            expectObject(p);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                JsonToken value = p.nextToken();
                switch (name) {
                    case "enabled" -> enabled = p.getValueAsBoolean(enabled);
                    case "timezone" -> timezone = value == JsonToken.VALUE_NULL ? timezone : p.getText();
                    case "slots" -> {
                        if (value == JsonToken.START_ARRAY) {
                            while (p.nextToken() == JsonToken.START_OBJECT) {
                                slots.add(slot(p));
                            }
                        } else {
                            p.skipChildren();
                        }
                    }
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ScheduleConfig(enabled, ScheduleConfig.zone(timezone), slots);
    }

    private static TimeSlot slot(JsonParser p) throws IOException {
        Integer day = null;
        String start = null;
        String end = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String name = p.currentName();
            p.nextToken();
            switch (name) {
                case "day_of_week" -> day = p.getIntValue();
                case "start_time" -> start = p.getValueAsString();
                case "end_time" -> end = p.getValueAsString();
                default -> p.skipChildren();
            }
        }
        if (day == null) {
            throw new IOException("a schedule slot without day_of_week");
        }
        return TimeSlot.of(day, start, end);
    }

    static CircuitBreakerConfig breaker(String text) {
        if (text == null) {
            return null;
        }
        CircuitBreakerConfig d = CircuitBreakerConfig.NONE;
        boolean enabled = d.enabled();
        double threshold = d.failureThreshold();
        int window = d.windowSeconds();
        int minCalls = d.minCallsInWindow();
        try (JsonParser p = JsonText.parser(text)) {
            expectObject(p);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String name = p.currentName();
                p.nextToken();
                switch (name) {
                    case "enabled" -> enabled = p.getValueAsBoolean(enabled);
                    case "failure_threshold" -> threshold = p.getValueAsDouble(threshold);
                    case "window_seconds" -> window = p.getValueAsInt(window);
                    case "min_calls_in_window" -> minCalls = p.getValueAsInt(minCalls);
                    default -> p.skipChildren();
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new CircuitBreakerConfig(enabled, threshold, window, minCalls);
    }

    private static void expectObject(JsonParser p) throws IOException {
        if (p.nextToken() != JsonToken.START_OBJECT) {
            throw new IOException("expected a JSON object, got " + p.currentToken());
        }
    }
}
