package dev.voiceagent.domain.calling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CallingHoursTest {

    private static final ZoneId NEW_YORK = ZoneId.of("America/New_York");
    private static final ZoneId LOS_ANGELES = ZoneId.of("America/Los_Angeles");
    private static final ZoneId LONDON = ZoneId.of("Europe/London");
    private static final ZoneId SYDNEY = ZoneId.of("Australia/Sydney");
    private static final CallingHours HOURS = CallingHours.DEFAULT; // 08:00-21:00

    @Test
    void theWindowIsReadInLocalTimeOnBothSidesOfTheSpringChange() {
        // 2026-03-08: New York springs forward at 07:00Z (02:00 EST -> 03:00 EDT)
        assertThat(HOURS.isOpen(Instant.parse("2026-03-07T12:59:00Z"), List.of(NEW_YORK))).isFalse(); // 07:59 EST
        assertThat(HOURS.isOpen(Instant.parse("2026-03-07T13:00:00Z"), List.of(NEW_YORK))).isTrue(); // 08:00 EST
        assertThat(HOURS.isOpen(Instant.parse("2026-03-08T12:00:00Z"), List.of(NEW_YORK))).isTrue(); // 08:00 EDT
        assertThat(HOURS.isOpen(Instant.parse("2026-03-08T11:59:00Z"), List.of(NEW_YORK))).isFalse(); // 07:59 EDT
        assertThat(HOURS.isOpen(Instant.parse("2026-03-09T00:59:00Z"), List.of(NEW_YORK))).isTrue(); // 20:59 EDT
        assertThat(HOURS.isOpen(Instant.parse("2026-03-09T01:00:00Z"), List.of(NEW_YORK))).isFalse(); // 21:00 EDT
        // after 21:00 EST on the 7th, the next opening is 08:00 EDT on the 8th: an hour earlier in UTC
        assertThat(HOURS.nextOpening(Instant.parse("2026-03-08T02:30:00Z"), List.of(NEW_YORK)))
                .contains(Instant.parse("2026-03-08T12:00:00Z"));
    }

    @Test
    void theAutumnChangeMovesTheOpeningAnHourLaterInUtc() {
        // 2026-11-01: New York falls back at 06:00Z (02:00 EDT -> 01:00 EST)
        assertThat(HOURS.nextOpening(Instant.parse("2026-11-01T03:00:00Z"), List.of(NEW_YORK)))
                .contains(Instant.parse("2026-11-01T13:00:00Z")); // 08:00 EST
        assertThat(HOURS.isOpen(Instant.parse("2026-11-01T12:30:00Z"), List.of(NEW_YORK))).isFalse(); // 07:30 EST
    }

    @Test
    void aStartInsideTheSpringGapOpensWhenTheClocksDo() {
        CallingHours early = CallingHours.parse("02:30", "05:00");
        // 02:30 does not exist in New York on 2026-03-08: the window opens at 03:00 EDT (07:00Z)
        assertThat(early.nextOpening(Instant.parse("2026-03-08T05:00:00Z"), List.of(NEW_YORK)))
                .contains(Instant.parse("2026-03-08T07:00:00Z"));
    }

    @Test
    void severalZonesAreReadTheMostRestrictiveWay() {
        List<ZoneId> coasts = List.of(NEW_YORK, LOS_ANGELES);
        Instant nineEastern = Instant.parse("2026-06-10T13:00:00Z"); // 09:00 EDT, 06:00 PDT
        assertThat(HOURS.isOpen(nineEastern, List.of(NEW_YORK))).isTrue();
        assertThat(HOURS.isOpen(nineEastern, coasts)).isFalse();
        assertThat(HOURS.nextOpening(nineEastern, coasts)).contains(Instant.parse("2026-06-10T15:00:00Z")); // 08 PDT
        Instant late = Instant.parse("2026-06-11T01:30:00Z"); // 21:30 EDT, 18:30 PDT
        assertThat(HOURS.isOpen(late, coasts)).isFalse();
        assertThat(HOURS.nextOpening(late, coasts)).contains(Instant.parse("2026-06-11T15:00:00Z"));
    }

    @Test
    void zonesThatNeverShareAnOpenHourHaveNoOpening() {
        CallingHours short_ = CallingHours.parse("09:00", "12:00");
        assertThat(short_.nextOpening(Instant.parse("2026-06-10T00:00:00Z"), List.of(LONDON, SYDNEY)))
                .isEqualTo(Optional.empty());
        assertThat(HOURS.nextOpening(Instant.parse("2026-06-10T00:00:00Z"), List.of(LONDON, NEW_YORK)))
                .contains(Instant.parse("2026-06-10T12:00:00Z")); // 13:00 London, 08:00 New York
    }

    @Test
    void theEndOfTheDayIs2400AndNarrowingIsContainment() {
        CallingHours allDay = CallingHours.parse("00:00", "24:00");
        assertThat(allDay.isOpen(Instant.parse("2026-06-10T23:59:59Z"), List.of(ZoneId.of("UTC")))).isTrue();
        assertThat(allDay.endText()).isEqualTo("24:00");
        assertThat(HOURS.contains(CallingHours.parse("09:00", "17:00"))).isTrue();
        assertThat(HOURS.contains(CallingHours.parse("07:00", "17:00"))).isFalse();
        assertThat(HOURS.contains(CallingHours.parse("09:00", "22:00"))).isFalse();
        assertThat(HOURS.contains(allDay)).isFalse();
        assertThat(allDay.contains(HOURS)).isTrue();
        assertThatThrownBy(() -> CallingHours.parse("21:00", "08:00")).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> CallingHours.parse("8am", "21:00")).isInstanceOf(DomainRuleViolation.class);
    }

    @Test
    void theContactsOwnZoneWinsThenTheNumbersThenTheFallback() {
        assertThat(CallingHours.zonesOf("Europe/London", List.of(NEW_YORK), SYDNEY)).containsExactly(LONDON);
        assertThat(CallingHours.zonesOf(null, List.of(NEW_YORK, LOS_ANGELES), SYDNEY))
                .containsExactly(NEW_YORK, LOS_ANGELES);
        assertThat(CallingHours.zonesOf(" ", List.of(), SYDNEY)).containsExactly(SYDNEY);
    }
}
