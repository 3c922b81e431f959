package dev.voiceagent.domain.usage;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.Map;
import org.junit.jupiter.api.Test;

class DailyReportTest {

    @Test
    void aDayAcrossADaylightSavingChangeIs23Or25Hours() {
        ZoneId newYork = ZoneId.of("America/New_York");
        Instant[] spring = DailyReport.window(LocalDate.of(2026, 3, 8), newYork);
        assertThat(spring[0]).isEqualTo(Instant.parse("2026-03-08T05:00:00Z"));
        assertThat(Duration.between(spring[0], spring[1])).isEqualTo(Duration.ofHours(23));
        Instant[] autumn = DailyReport.window(LocalDate.of(2026, 11, 1), newYork);
        assertThat(Duration.between(autumn[0], autumn[1])).isEqualTo(Duration.ofHours(25));
        Instant[] plain = DailyReport.window(LocalDate.of(2026, 11, 2), newYork);
        assertThat(Duration.between(plain[0], plain[1])).isEqualTo(Duration.ofHours(24));
    }

    @Test
    void theFiveMostFrequentDispositionsAndTheRestAsOther() {
        DailyReport report = DailyReport.of(LocalDate.of(2026, 5, 1), "UTC", null, 30, 9,
                Map.of("XFER", 9L, "VM", 6L, "NA", 5L, "DNC", 4L, "BUSY", 3L, "HANGUP", 2L, "ODD", 1L),
                Map.of("0-10", 10L, ">180", 20L));
        assertThat(report.dispositions()).extracting(DailyReport.Share::disposition)
                .containsExactly("XFER", "VM", "NA", "DNC", "BUSY", "Other");
        assertThat(report.dispositions().getLast().count()).isEqualTo(3);
        assertThat(report.dispositions().stream().map(DailyReport.Share::percentage)
                .reduce(BigDecimal.ZERO, BigDecimal::add)).isEqualByComparingTo("100");
        assertThat(report.durations()).hasSize(6);
        assertThat(report.durations().getFirst().percentage()).isEqualByComparingTo("33.33");
        assertThat(report.durations().getLast().percentage()).isEqualByComparingTo("66.67");
        assertThat(report.durations().getLast().rangeEnd()).isNull();
    }

    @Test
    void tiesAreOrderedByNameSoTheFoldIsStable() {
        DailyReport report = DailyReport.of(LocalDate.of(2026, 5, 1), "UTC", 4L, 6, 0,
                Map.of("F", 1L, "E", 1L, "D", 1L, "C", 1L, "B", 1L, "A", 1L), Map.of());
        assertThat(report.dispositions()).extracting(DailyReport.Share::disposition)
                .containsExactly("A", "B", "C", "D", "E", "Other");
        assertThat(report.durations()).allSatisfy(b -> assertThat(b.percentage()).isEqualByComparingTo("0"));
    }
}
