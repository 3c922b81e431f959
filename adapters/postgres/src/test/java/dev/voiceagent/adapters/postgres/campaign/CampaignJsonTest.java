package dev.voiceagent.adapters.postgres.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.adapters.postgres.shared.JsonText;
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
 * The campaign list reads its JSON columns as text with the streaming parser; the dispatcher still
 * reads them as the PG client's JsonObjects. Both readings must give the same configurations and
 * the same log details, whatever was stored.
 */
class CampaignJsonTest {

    private static final List<String> ZONES = List.of("UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata");

    @Test
    void textAndJsonObjectReadingsAgreeOnRandomConfigurations() {
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

            String retryText = CampaignJson.retry(retry).encode();
            String scheduleText = CampaignJson.schedule(schedule).encode();
            String breakerText = CampaignJson.breaker(breaker).encode();
            assertThat(CampaignJson.retry(retryText)).isEqualTo(retry)
                    .isEqualTo(CampaignJson.retry(new JsonObject(retryText)));
            assertThat(CampaignJson.schedule(scheduleText)).isEqualTo(schedule)
                    .isEqualTo(CampaignJson.schedule(new JsonObject(scheduleText)));
            assertThat(CampaignJson.breaker(breakerText)).isEqualTo(breaker)
                    .isEqualTo(CampaignJson.breaker(new JsonObject(breakerText)));
        }
    }

    @Test
    void absentFieldsTakeTheSameDefaultsAndUnknownOnesAreSkipped() {
        for (String text : List.of("{}", "{\"enabled\":true,\"extra\":{\"a\":[1,{\"b\":null}]},\"max_retries\":4}",
                "{\"max_retries\":2,\"retry_delay_seconds\":3600}")) {
            assertThat(CampaignJson.retry(text)).as(text).isEqualTo(CampaignJson.retry(new JsonObject(text)));
        }
        for (String text : List.of("{}", "{\"failure_threshold\":1,\"later\":[true],\"window_seconds\":600}")) {
            assertThat(CampaignJson.breaker(text)).as(text).isEqualTo(CampaignJson.breaker(new JsonObject(text)));
        }
        String slot = "{\"day_of_week\":0,\"start_time\":\"09:00\",\"end_time\":\"17:00\"}";
        for (String text : List.of("{\"slots\":[" + slot + "]}", "{\"timezone\":\"Asia/Tokyo\",\"x\":1,\"slots\":[" + slot + "]}",
                "{\"enabled\":true,\"slots\":[{\"day_of_week\":6,\"start_time\":\"08:00\",\"end_time\":\"09:30\",\"n\":[1]}]}")) {
            assertThat(CampaignJson.schedule(text)).as(text).isEqualTo(CampaignJson.schedule(new JsonObject(text)));
        }
        assertThat(CampaignJson.schedule((String) null)).isNull();
        assertThat(CampaignJson.breaker((String) null)).isNull();
        assertThat(CampaignJson.schedule("null")).isNull(); // a json column holding JSON null, as the client reads it
        assertThat(CampaignJson.breaker("null")).isEqualTo(CampaignJson.breaker((JsonObject) null));
        assertThatThrownBy(() -> CampaignJson.retry("[1]")).hasMessageContaining("expected a JSON object");
    }

    @Test
    void logDetailsAsTextAreTheSameValuesAsTheClientsDecoding() {
        List<String> texts = List.of("{\"failure_rate\":0.6,\"window_seconds\":120}",
                "{\"n\":1,\"big\":12345678901,\"huge\":123456789012345678901234567890,\"neg\":-0.0,\"exp\":1e-7}",
                "{\"nested\":{\"list\":[1,\"two\",3.5,true,false,null,{\"deep\":[]}]},\"nothing\":null}",
                "{\"text\":\"caf\\u00e9 \\ud83d\\ude00 \\\"quoted\\\" \\\\ \\n\",\"empty\":\"\",\"z\":{},\"a\":[]}");
        for (String text : texts) {
            Map<String, Object> fromText = JsonText.toMap(text);
            assertThat(fromText).as(text).isEqualTo(JsonValues.toMap(new JsonObject(text)));
            assertThat(List.copyOf(fromText.keySet())).as("insertion order of " + text)
                    .isEqualTo(List.copyOf(JsonValues.toMap(new JsonObject(text)).keySet()));
        }
        assertThat(JsonText.toMap(texts.get(1))).containsEntry("n", 1).containsEntry("big", 12345678901L)
                .containsEntry("huge", new BigInteger("123456789012345678901234567890")).containsEntry("exp", 1e-7);
        assertThat(JsonText.toMap(null)).isNull();
        assertThat(JsonText.toMap("null")).isNull();
    }
}
