package dev.voiceagent.domain.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleWindowTest {

    private static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    private static ScheduleConfig schedule(ZoneId zone, TimeSlot... slots) {
        return new ScheduleConfig(true, zone, List.of(slots));
    }

    private static Instant at(String instant) {
        return Instant.parse(instant);
    }

    @Test
    void startIsInclusiveAndEndExclusiveInTheCampaignsZone() {
        // Monday 2026-11-23, Berlin is UTC+1 in winter
        ScheduleConfig weekdays = schedule(BERLIN, TimeSlot.of(0, "09:00", "17:00"));
        assertThat(ScheduleWindow.isOpen(weekdays, null, at("2026-11-23T07:59:59Z"))).isFalse();
        assertThat(ScheduleWindow.isOpen(weekdays, null, at("2026-11-23T08:00:00Z"))).isTrue();
        assertThat(ScheduleWindow.isOpen(weekdays, null, at("2026-11-23T15:59:59Z"))).isTrue();
        assertThat(ScheduleWindow.isOpen(weekdays, null, at("2026-11-23T16:00:00Z"))).isFalse();
        assertThat(ScheduleWindow.isOpen(weekdays, null, at("2026-11-24T08:30:00Z"))).as("Tuesday").isFalse();
    }

    @Test
    void theNextOpeningSkipsToTheNextSlot() {
        ScheduleConfig weekdays = schedule(BERLIN, TimeSlot.of(0, "09:00", "17:00"), TimeSlot.of(2, "10:00", "12:00"));
        assertThat(ScheduleWindow.nextOpening(weekdays, null, at("2026-11-21T12:00:00Z"))).contains(at("2026-11-23T08:00:00Z"));
        assertThat(ScheduleWindow.nextOpening(weekdays, null, at("2026-11-23T16:00:00Z"))).contains(at("2026-11-25T09:00:00Z"));
        assertThat(ScheduleWindow.nextOpening(weekdays, null, at("2026-11-23T10:00:00Z"))).contains(at("2026-11-23T10:00:00Z"));
    }

    @Test
    void aSlotStartingInTheSpringGapOpensWhenTheGapEnds() {
        // 2026-03-29: Berlin skips 02:00-03:00 local (01:00Z)
        ScheduleConfig night = schedule(BERLIN, TimeSlot.of(6, "02:30", "04:00"));
        assertThat(ScheduleWindow.nextOpening(night, null, at("2026-03-28T12:00:00Z"))).contains(at("2026-03-29T01:00:00Z"));
        assertThat(ScheduleWindow.isOpen(night, null, at("2026-03-29T00:59:59Z"))).isFalse();
        assertThat(ScheduleWindow.isOpen(night, null, at("2026-03-29T01:00:00Z"))).isTrue();
        assertThat(ScheduleWindow.isOpen(night, null, at("2026-03-29T01:59:59Z"))).isTrue();
        assertThat(ScheduleWindow.isOpen(night, null, at("2026-03-29T02:00:00Z"))).as("04:00 CEST").isFalse();
        ScheduleConfig lost = schedule(BERLIN, TimeSlot.of(6, "02:10", "02:50"));
        assertThat(ScheduleWindow.nextOpening(lost, null, at("2026-03-28T12:00:00Z")))
                .as("a slot entirely in the gap is skipped that day").contains(at("2026-04-05T00:10:00Z"));
    }

    @Test
    void theRepeatedAutumnHourIsMatchedTwice() {
        // 2026-10-25: Berlin repeats 02:00-03:00 local (00:00Z-01:00Z CEST, then 01:00Z-02:00Z CET)
        ScheduleConfig night = schedule(BERLIN, TimeSlot.of(6, "02:00", "03:00"));
        assertThat(ScheduleWindow.isOpen(night, null, at("2026-10-24T23:59:59Z"))).isFalse();
        assertThat(ScheduleWindow.isOpen(night, null, at("2026-10-25T00:30:00Z"))).isTrue();
        assertThat(ScheduleWindow.isOpen(night, null, at("2026-10-25T01:30:00Z"))).isTrue();
        assertThat(ScheduleWindow.isOpen(night, null, at("2026-10-25T02:00:00Z"))).isFalse();
    }

    @Test
    void aContactsOwnZoneWins() {
        ScheduleConfig utc = schedule(ZoneId.of("UTC"), TimeSlot.of(0, "09:00", "17:00"));
        ZoneId newYork = ZoneId.of("America/New_York");
        assertThat(ScheduleWindow.isOpen(utc, null, at("2026-11-23T13:59:00Z"))).isTrue();
        assertThat(ScheduleWindow.isOpen(utc, newYork, at("2026-11-23T13:59:00Z"))).as("08:59 in New York").isFalse();
        assertThat(ScheduleWindow.isOpen(utc, newYork, at("2026-11-23T14:00:00Z"))).isTrue();
        assertThat(ScheduleWindow.nextOpening(utc, newYork, at("2026-11-23T13:00:00Z"))).contains(at("2026-11-23T14:00:00Z"));
    }

    @Test
    void withoutAnEnabledScheduleDialingIsAlwaysAllowed() {
        ScheduleConfig disabled = new ScheduleConfig(false, BERLIN, List.of(TimeSlot.of(0, "09:00", "10:00")));
        assertThat(ScheduleWindow.isOpen(disabled, null, at("2026-11-21T03:00:00Z"))).isTrue();
        assertThat(ScheduleWindow.isOpen(null, null, at("2026-11-21T03:00:00Z"))).isTrue();
        assertThat(ScheduleWindow.nextOpening(disabled, null, at("2026-11-21T03:00:00Z"))).isEmpty();
    }
}
