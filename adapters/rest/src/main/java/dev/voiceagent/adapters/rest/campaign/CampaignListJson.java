package dev.voiceagent.adapters.rest.campaign;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import dev.voiceagent.application.campaign.CampaignView;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.RetryConfig;
import dev.voiceagent.domain.campaign.ScheduleConfig;
import dev.voiceagent.domain.campaign.TimeSlot;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The campaign list ({@link CampaignResponses.CampaignsResponse}) written with Jackson's streaming
 * generator straight from the views: explicit, pre-encoded property names in the order of
 * {@link CampaignResponses.CampaignResponse}, no reflection, no response records in between. The
 * list is the most polled operation (dashboards refresh it), so it skips the generic bean
 * serializer; {@code CampaignListJsonTest} holds it to the records' output, field for field.
 */
final class CampaignListJson {

    private static final SerializableString CAMPAIGNS = name("campaigns"), ID = name("id"), NAME = name("name"),
            WORKFLOW_ID = name("workflow_id"), WORKFLOW_NAME = name("workflow_name"), STATE = name("state"),
            SOURCE_TYPE = name("source_type"), SOURCE_ID = name("source_id"), TOTAL_ROWS = name("total_rows"),
            PROCESSED_ROWS = name("processed_rows"), FAILED_ROWS = name("failed_rows"), CREATED_AT = name("created_at"),
            STARTED_AT = name("started_at"), COMPLETED_AT = name("completed_at"), RETRY_CONFIG = name("retry_config"),
            MAX_CONCURRENCY = name("max_concurrency"), SCHEDULE_CONFIG = name("schedule_config"),
            CIRCUIT_BREAKER = name("circuit_breaker"), EXECUTED_COUNT = name("executed_count"),
            TOTAL_QUEUED_COUNT = name("total_queued_count"), PARENT_CAMPAIGN_ID = name("parent_campaign_id"),
            REDIALED_CAMPAIGN_ID = name("redialed_campaign_id"),
            TELEPHONY_CONFIGURATION_ID = name("telephony_configuration_id"),
            TELEPHONY_CONFIGURATION_NAME = name("telephony_configuration_name"), LOGS = name("logs"),
            ENABLED = name("enabled"), MAX_RETRIES = name("max_retries"), RETRY_DELAY_SECONDS = name("retry_delay_seconds"),
            RETRY_ON_BUSY = name("retry_on_busy"), RETRY_ON_NO_ANSWER = name("retry_on_no_answer"),
            RETRY_ON_VOICEMAIL = name("retry_on_voicemail"), TIMEZONE = name("timezone"), SLOTS = name("slots"),
            DAY_OF_WEEK = name("day_of_week"), START_TIME = name("start_time"), END_TIME = name("end_time"),
            FAILURE_THRESHOLD = name("failure_threshold"), WINDOW_SECONDS = name("window_seconds"),
            MIN_CALLS_IN_WINDOW = name("min_calls_in_window"), TS = name("ts"), LEVEL = name("level"),
            EVENT = name("event"), MESSAGE = name("message"), DETAILS = name("details");

    /** The size of the last list written, so that the next one's buffer seldom grows. */
    private static final AtomicInteger SIZE_HINT = new AtomicInteger(8192);

    private CampaignListJson() {
    }

    /** The UTF-8 JSON of {@code {"campaigns": [...]}}. */
    static byte[] write(JsonFactory factory, List<CampaignView> views) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(SIZE_HINT.get() + 1024);
        try (JsonGenerator g = factory.createGenerator(out)) {
            g.writeStartObject();
            g.writeFieldName(CAMPAIGNS);
            g.writeStartArray();
            for (CampaignView view : views) {
                campaign(g, view);
            }
            g.writeEndArray();
            g.writeEndObject();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a ByteArrayOutputStream does not fail
        }
        SIZE_HINT.set(out.size());
        return out.toByteArray();
    }

    private static void campaign(JsonGenerator g, CampaignView view) throws IOException {
        Campaign c = view.campaign();
        g.writeStartObject();
        g.writeFieldName(ID);
        g.writeNumber(c.id());
        g.writeFieldName(NAME);
        g.writeString(c.name());
        g.writeFieldName(WORKFLOW_ID);
        g.writeNumber(c.workflowId());
        g.writeFieldName(WORKFLOW_NAME);
        g.writeString(view.workflowName());
        g.writeFieldName(STATE);
        g.writeString(c.state().wireName());
        g.writeFieldName(SOURCE_TYPE);
        g.writeString(c.sourceType());
        g.writeFieldName(SOURCE_ID);
        g.writeString(c.sourceId());
        g.writeFieldName(TOTAL_ROWS);
        number(g, c.totalRows());
        g.writeFieldName(PROCESSED_ROWS);
        g.writeNumber(c.processedRows());
        g.writeFieldName(FAILED_ROWS);
        g.writeNumber(c.failedRows());
        g.writeFieldName(CREATED_AT);
        instant(g, c.createdAt());
        g.writeFieldName(STARTED_AT);
        instant(g, c.startedAt());
        g.writeFieldName(COMPLETED_AT);
        instant(g, c.completedAt());
        g.writeFieldName(RETRY_CONFIG);
        retry(g, c.retryConfig());
        g.writeFieldName(MAX_CONCURRENCY);
        number(g, c.maxConcurrency());
        g.writeFieldName(SCHEDULE_CONFIG);
        schedule(g, c.scheduleConfig());
        g.writeFieldName(CIRCUIT_BREAKER);
        breaker(g, c.effectiveCircuitBreaker());
        g.writeFieldName(EXECUTED_COUNT);
        g.writeNumber(view.executedCount());
        g.writeFieldName(TOTAL_QUEUED_COUNT);
        g.writeNumber(view.totalQueuedCount());
        g.writeFieldName(PARENT_CAMPAIGN_ID);
        number(g, c.parentCampaignId());
        g.writeFieldName(REDIALED_CAMPAIGN_ID);
        number(g, c.redialedCampaignId());
        g.writeFieldName(TELEPHONY_CONFIGURATION_ID);
        number(g, c.telephonyConfigurationId());
        g.writeFieldName(TELEPHONY_CONFIGURATION_NAME);
        g.writeString(view.telephonyConfigurationName());
        g.writeFieldName(LOGS);
        g.writeStartArray();
        for (CampaignLogEntry entry : c.logs()) {
            log(g, entry);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void retry(JsonGenerator g, RetryConfig r) throws IOException {
        g.writeStartObject();
        g.writeFieldName(ENABLED);
        g.writeBoolean(r.enabled());
        g.writeFieldName(MAX_RETRIES);
        g.writeNumber(r.maxRetries());
        g.writeFieldName(RETRY_DELAY_SECONDS);
        g.writeNumber(r.retryDelaySeconds());
        g.writeFieldName(RETRY_ON_BUSY);
        g.writeBoolean(r.retryOnBusy());
        g.writeFieldName(RETRY_ON_NO_ANSWER);
        g.writeBoolean(r.retryOnNoAnswer());
        g.writeFieldName(RETRY_ON_VOICEMAIL);
        g.writeBoolean(r.retryOnVoicemail());
        g.writeEndObject();
    }

    private static void schedule(JsonGenerator g, ScheduleConfig s) throws IOException {
        if (s == null) {
            g.writeNull();
            return;
        }
        g.writeStartObject();
        g.writeFieldName(ENABLED);
        g.writeBoolean(s.enabled());
        g.writeFieldName(TIMEZONE);
        g.writeString(s.timezone().getId());
        g.writeFieldName(SLOTS);
        g.writeStartArray();
        for (TimeSlot slot : s.slots()) {
            g.writeStartObject();
            g.writeFieldName(DAY_OF_WEEK);
            g.writeNumber(slot.dayOfWeek());
            g.writeFieldName(START_TIME);
            g.writeString(slot.startText());
            g.writeFieldName(END_TIME);
            g.writeString(slot.endText());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void breaker(JsonGenerator g, CircuitBreakerConfig b) throws IOException {
        g.writeStartObject();
        g.writeFieldName(ENABLED);
        g.writeBoolean(b.enabled());
        g.writeFieldName(FAILURE_THRESHOLD);
        g.writeNumber(b.failureThreshold());
        g.writeFieldName(WINDOW_SECONDS);
        g.writeNumber(b.windowSeconds());
        g.writeFieldName(MIN_CALLS_IN_WINDOW);
        g.writeNumber(b.minCallsInWindow());
        g.writeEndObject();
    }

    private static void log(JsonGenerator g, CampaignLogEntry e) throws IOException {
        g.writeStartObject();
        g.writeFieldName(TS);
        g.writeString(IsoInstant.format(e.ts()));
        g.writeFieldName(LEVEL);
        g.writeString(e.level().wireName());
        g.writeFieldName(EVENT);
        g.writeString(e.event());
        g.writeFieldName(MESSAGE);
        g.writeString(e.message());
        g.writeFieldName(DETAILS);
        value(g, e.details());
        g.writeEndObject();
    }

    /** A log entry's free-form details: the JSON-shaped values the log holds (maps, lists, scalars). */
    private static void value(JsonGenerator g, Object value) throws IOException {
        switch (value) {
            case null -> g.writeNull();
            case String s -> g.writeString(s);
            case Boolean b -> g.writeBoolean(b);
            case Integer i -> g.writeNumber(i);
            case Long l -> g.writeNumber(l);
            case Double d -> g.writeNumber(d);
            case Float f -> g.writeNumber(f);
            case BigDecimal d -> g.writeNumber(d);
            case BigInteger i -> g.writeNumber(i);
            case Short s -> g.writeNumber(s);
            case Map<?, ?> map -> {
                g.writeStartObject();
                for (Map.Entry<?, ?> entry : map.entrySet()) {
                    g.writeFieldName(String.valueOf(entry.getKey()));
                    value(g, entry.getValue());
                }
                g.writeEndObject();
            }
            case List<?> list -> {
                g.writeStartArray();
                for (Object item : list) {
                    value(g, item);
                }
                g.writeEndArray();
            }
            default -> g.writeObject(value); // anything else through the mapper, as the records would be
        }
    }

    private static void number(JsonGenerator g, Integer value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else {
            g.writeNumber(value.intValue());
        }
    }

    private static void number(JsonGenerator g, Long value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else {
            g.writeNumber(value.longValue());
        }
    }

    private static void instant(JsonGenerator g, Instant value) throws IOException {
        if (value == null) {
            g.writeNull();
        } else {
            g.writeString(IsoInstant.format(value)); // ISO-8601 as the mapper's InstantSerializer writes it
        }
    }

    private static SerializableString name(String value) {
        return new SerializedString(value);
    }
}
