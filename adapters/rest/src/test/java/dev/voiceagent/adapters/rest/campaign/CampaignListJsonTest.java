package dev.voiceagent.adapters.rest.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.voiceagent.application.campaign.CampaignView;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import dev.voiceagent.domain.campaign.CampaignState;
import dev.voiceagent.domain.campaign.CircuitBreakerConfig;
import dev.voiceagent.domain.campaign.LogLevel;
import dev.voiceagent.domain.campaign.RetryConfig;
import dev.voiceagent.domain.campaign.ScheduleConfig;
import dev.voiceagent.domain.campaign.TimeSlot;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The streaming list writer against the response records it replaces: the same bytes, field for field. */
class CampaignListJsonTest {

    /** Configured as the application's mapper is for output (application.properties). */
    private final ObjectMapper mapper = new ObjectMapper().findAndRegisterModules()
            .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);

    @Test
    void writesExactlyWhatTheResponseRecordsWrite() throws Exception {
        List<CampaignView> views = List.of(full(), bare(), unicode());
        // as bytes, as the REST layer writes a response (UTF-8 generator: a surrogate pair is escaped)
        String expected = new String(mapper.writeValueAsBytes(CampaignResponses.CampaignsResponse.of(views)),
                StandardCharsets.UTF_8);
        String streamed = new String(CampaignListJson.write(mapper.getFactory(), views), StandardCharsets.UTF_8);
        assertThat(streamed).isEqualTo(expected);
        assertThat(mapper.readTree(streamed).get("campaigns")).hasSize(3);
    }

    @Test
    void anEmptyListAndAListLargerThanTheLastOneAreWhole() throws Exception {
        assertThat(new String(CampaignListJson.write(mapper.getFactory(), List.of()), StandardCharsets.UTF_8))
                .isEqualTo("{\"campaigns\":[]}");
        List<CampaignView> many = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            many.add(full());
        }
        byte[] bytes = CampaignListJson.write(mapper.getFactory(), many);
        assertThat(mapper.readTree(bytes).get("campaigns")).hasSize(300);
        assertThat(new String(bytes, StandardCharsets.UTF_8))
                .isEqualTo(new String(mapper.writeValueAsBytes(CampaignResponses.CampaignsResponse.of(many)),
                        StandardCharsets.UTF_8));
    }

    private static CampaignView full() {
        Map<String, Object> nested = new LinkedHashMap<>();
        nested.put("zones", List.of("America/New_York", "Europe/Berlin"));
        nested.put("none", null);
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("failure_rate", 0.6);
        details.put("window_seconds", 120);
        details.put("calls", 12_345_678_901L);
        details.put("exact", new BigDecimal("1.10"));
        details.put("tripped", true);
        details.put("nested", nested);
        details.put("list", Arrays.asList(1, "two", null, 3.5, List.of()));
        List<CampaignLogEntry> logs = List.of(
                new CampaignLogEntry(Instant.parse("2026-11-23T10:15:30.123456Z"), LogLevel.WARNING,
                        "circuit_breaker_tripped", "Failure rate over threshold", details),
                new CampaignLogEntry(Instant.parse("2026-11-23T10:16:00Z"), LogLevel.INFO, "campaign_started",
                        "Started", null),
                new CampaignLogEntry(Instant.parse("2026-11-23T10:17:00.100Z"), LogLevel.ERROR, "x", "", Map.of()));
        Campaign c = new Campaign(42L, 7, "Spring \"promo\" \\ list", 9, 3L, 11L, "csv", "campaigns/7/c.csv",
                CampaignState.RUNNING, 1000, 250, 3, new RetryConfig(true, 2, 120, true, true, false), 10,
                new ScheduleConfig(true, ScheduleConfig.zone("Europe/Berlin"),
                        List.of(TimeSlot.of(0, "09:00", "17:00"), TimeSlot.of(6, "00:00", "23:59"))),
                new CircuitBreakerConfig(true, 0.5, 120, 5), 40L, 43L,
                Instant.parse("2026-11-20T08:00:00Z"), Instant.parse("2026-11-20T08:00:01.5Z"), null, logs);
        return new CampaignView(c, "Benchmark flow", "Bench trunk", 6, 10);
    }

    /** Every nullable field null, no schedule, no breaker (the API shows the default breaker). */
    private static CampaignView bare() {
        Campaign c = new Campaign(43L, 7, "Bare", 9, null, null, "google_sheet", "https://example.com/s",
                CampaignState.CREATED, null, 0, 0, RetryConfig.DEFAULT, null, null, null, null, null,
                Instant.parse("2026-01-01T00:00:00Z"), null, null, List.of());
        return new CampaignView(c, null, null, 0, 0);
    }

    private static CampaignView unicode() {
        Campaign c = new Campaign(44L, 7, "Grüße 📞 \u0001 </script>", 9, 3L, 11L, "csv", "ü", CampaignState.COMPLETED,
                5, 5, 1, RetryConfig.DEFAULT, 1, null, CircuitBreakerConfig.NONE, null, null,
                Instant.parse("2026-03-08T07:00:00Z"), Instant.parse("2026-03-08T07:00:00Z"),
                Instant.parse("2026-03-08T09:30:00.000001Z"), List.of(new CampaignLogEntry(
                        Instant.parse("2026-03-08T09:30:00Z"), LogLevel.INFO, "campaign_completed", "Ünïcode ✓",
                        Map.of("k", "v"))));
        return new CampaignView(c, "Flow ✓", "Trunk", 5, 5);
    }
}
