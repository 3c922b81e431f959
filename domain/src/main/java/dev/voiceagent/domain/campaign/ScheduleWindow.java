package dev.voiceagent.domain.campaign;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Optional;

/**
 * When a campaign may dial. Slots are evaluated in local time of the zone (the contact's own zone
 * when it has one, else the campaign's): day 0 = Monday, start inclusive, end exclusive.
 * Daylight-saving changes follow the zone's rules: a slot starting in a skipped hour opens at the
 * first instant after the gap; in a repeated hour the local time is simply matched twice.
 */
public final class ScheduleWindow {

    private ScheduleWindow() {
    }

    public static boolean isOpen(ScheduleConfig schedule, ZoneId contactZone, Instant now) {
        if (schedule == null || !schedule.enabled()) {
            return true;
        }
        LocalDateTime local = LocalDateTime.ofInstant(now, zone(schedule, contactZone));
        int day = local.getDayOfWeek().getValue() - 1;
        for (TimeSlot slot : schedule.slots()) {
            if (slot.dayOfWeek() == day && !local.toLocalTime().isBefore(slot.start())
                    && local.toLocalTime().isBefore(slot.end())) {
                return true;
            }
        }
        return false;
    }

    /** The next instant at or after {@code now} when a slot is open; empty when no schedule limits dialing. */
    public static Optional<Instant> nextOpening(ScheduleConfig schedule, ZoneId contactZone, Instant now) {
        if (schedule == null || !schedule.enabled()) {
            return Optional.empty();
        }
        if (isOpen(schedule, contactZone, now)) {
            return Optional.of(now);
        }
        ZoneId zone = zone(schedule, contactZone);
        LocalDate today = LocalDate.ofInstant(now, zone);
        Instant best = null;
        for (int offset = 0; offset <= 14; offset++) { // two weeks: a slot lost to a DST gap recurs a week later
            LocalDate date = today.plusDays(offset);
            DayOfWeek day = date.getDayOfWeek();
            for (TimeSlot slot : schedule.slots()) {
                if (slot.day() != day) {
                    continue;
                }
                Instant opens = localInstant(date, slot.start(), zone);
                Instant closes = localInstant(date, slot.end(), zone);
                if (!opens.isBefore(closes)) {
                    continue; // the whole slot fell into a daylight-saving gap
                }
                if (opens.isAfter(now) && (best == null || opens.isBefore(best))) {
                    best = opens;
                }
            }
            if (best != null) {
                return Optional.of(best);
            }
        }
        return Optional.ofNullable(best);
    }

    /** A local time on a date as an instant; a time inside a daylight-saving gap is the end of the gap. */
    private static Instant localInstant(LocalDate date, LocalTime time, ZoneId zone) {
        LocalDateTime local = LocalDateTime.of(date, time);
        var transition = zone.getRules().getTransition(local);
        if (transition != null && transition.isGap()) {
            return transition.getInstant();
        }
        return ZonedDateTime.of(local, zone).toInstant();
    }

    private static ZoneId zone(ScheduleConfig schedule, ZoneId contactZone) {
        return contactZone != null ? contactZone : schedule.timezone();
    }
}
