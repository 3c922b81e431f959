package dev.voiceagent.adapters.postgres.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.adapters.postgres.shared.JsonColumns;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.RetryConfig;
import dev.voiceagent.domain.campaign.ScheduleConfig;
import dev.voiceagent.domain.campaign.TimeSlot;
import io.vertx.core.json.JsonObject;
import java.math.BigInteger;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The campaign list and the dispatcher read the JSON columns as text with the streaming parser: it
 * must read back every configuration the writer stores, give absent fields their defaults, skip
 * unknown ones, and read log details as the same values as the PG client's decoding.
 */
class CampaignJsonTest {

    private static final List<String> ZONES = List.of("UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata");

    @Test
    void theTextReaderReadsBackEveryConfigurationTheWriterStores() {
        Random random = new Random(17);
        for (int i = 0; i < 2_000; i++) {
            RetryConfig retry = new RetryConfig(random.nextBoolean(), random.nextInt(RetryConfig.MAX_RETRIES_LIMIT + 1),
                    30 + random.nextInt(3_571),
                    random.nextBoolean(), random.nextBoolean(), random.nextBoolean());
            List<TimeSlot> slots = new ArrayList<>();
            for (int s = 1 + random.nextInt(4); s > 0; s--) {
                int start = random.nextInt(23);
                slots.add(TimeSlot.of(random.nextInt(7), String.format("%02d:%02d", start, random.nextInt(60)),
                        String.format("%02d:%02d", start + 1, random.nextInt(60))));
            }
            ScheduleConfig schedule = new ScheduleConfig(random.nextBoolean(),
                    ZoneId.of(ZONES.get(random.nextInt(ZONES.size()))), slots);
            CircuitBreakerConfig breaker = new CircuitBreakerConfig(random.nextBoolean(), random.nextInt(101) / 100.0,
                    30 + random.nextInt(571), 1 + random.nextInt(100));

            assertThat(CampaignJson.retry(CampaignJson.retry(retry).encode())).isEqualTo(retry);
            assertThat(CampaignJson.schedule(CampaignJson.schedule(schedule).encode())).isEqualTo(schedule);
            assertThat(CampaignJson.breaker(CampaignJson.breaker(breaker).encode())).isEqualTo(breaker);
        }
    }

    @Test
    void absentFieldsTakeTheDefaultsAndUnknownOnesAreSkipped() {
        RetryConfig d = RetryConfig.DEFAULT;
        assertThat(CampaignJson.retry("{}")).isEqualTo(d);
        assertThat(CampaignJson.retry("{\"enabled\":false,\"extra\":{\"a\":[1,{\"b\":null}]},\"max_retries\":4}"))
                .isEqualTo(new RetryConfig(false, 4, d.retryDelaySeconds(), d.retryOnBusy(), d.retryOnNoAnswer(),
                        d.retryOnVoicemail()));
        assertThat(CampaignJson.retry("{\"max_retries\":2,\"retry_delay_seconds\":3600}")).isEqualTo(new RetryConfig(
                d.enabled(), 2, 3600, d.retryOnBusy(), d.retryOnNoAnswer(), d.retryOnVoicemail()));

        CircuitBreakerConfig none = CircuitBreakerConfig.NONE;
        assertThat(CampaignJson.breaker("{}")).isEqualTo(none);
        assertThat(CampaignJson.breaker("{\"failure_threshold\":1,\"later\":[true],\"window_seconds\":600}"))
                .isEqualTo(new CircuitBreakerConfig(none.enabled(), 1.0, 600, none.minCallsInWindow()));

        String slot = "{\"day_of_week\":0,\"start_time\":\"09:00\",\"end_time\":\"17:00\"}";
        List<TimeSlot> nineToFive = List.of(TimeSlot.of(0, "09:00", "17:00"));
        assertThat(CampaignJson.schedule("{\"slots\":[" + slot + "]}"))
                .isEqualTo(new ScheduleConfig(false, ScheduleConfig.zone("UTC"), nineToFive));
        assertThat(CampaignJson.schedule("{\"timezone\":\"Asia/Tokyo\",\"x\":1,\"slots\":[" + slot + "]}"))
                .isEqualTo(new ScheduleConfig(false, ZoneId.of("Asia/Tokyo"), nineToFive));
        assertThat(CampaignJson.schedule(
                "{\"enabled\":true,\"slots\":[{\"day_of_week\":6,\"start_time\":\"08:00\",\"end_time\":\"09:30\",\"n\":[1]}]}"))
                .isEqualTo(new ScheduleConfig(true, ScheduleConfig.zone("UTC"), List.of(TimeSlot.of(6, "08:00", "09:30"))));

        assertThat(CampaignJson.schedule((String) null)).isNull(); // a nullable column holding SQL NULL
        assertThat(CampaignJson.breaker((String) null)).isNull();
        assertThat(CampaignJson.schedule("null")).isNull(); // a json column holding JSON null
        assertThat(CampaignJson.breaker("null")).isNull();
        assertThatThrownBy(() -> CampaignJson.retry("[1]")).hasMessageContaining("expected a JSON object");
    }

    @Test
    void logDetailsAsTextAreTheSameValuesAsTheClientsDecoding() {
        List<String> texts = List.of("{\"failure_rate\":0.6,\"window_seconds\":120}",
                "{\"n\":1,\"big\":12345678901,\"huge\":123456789012345678901234567890,\"neg\":-0.0,\"exp\":1e-7}",
                "{\"nested\":{\"list\":[1,\"two\",3.5,true,false,null,{\"deep\":[]}]},\"nothing\":null}",
                "{\"text\":\"caf\\u00e9 \\ud83d\\ude00 \\\"quoted\\\" \\\\ \\n\",\"empty\":\"\",\"z\":{},\"a\":[]}");
        for (String text : texts) {
            Map<String, Object> fromText = JsonColumns.toMap(text);
            assertThat(fromText).as(text).isEqualTo(JsonValues.toMap(new JsonObject(text)));
            assertThat(List.copyOf(fromText.keySet())).as("insertion order of " + text)
                    .isEqualTo(List.copyOf(JsonValues.toMap(new JsonObject(text)).keySet()));
        }
        assertThat(JsonColumns.toMap(texts.get(1))).containsEntry("n", 1).containsEntry("big", 12345678901L)
                .containsEntry("huge", new BigInteger("123456789012345678901234567890")).containsEntry("exp", 1e-7);
        assertThat(JsonColumns.toMap(null)).isNull();
        assertThat(JsonColumns.toMap("null")).isNull();
    }
}
