package dev.voiceagent.domain.calling;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeParseException;
import java.time.zone.ZoneOffsetTransition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * The hours of the day a contact may be called, in the contact's local time: [start, end), end 24:00 meaning the
 * end of the day. With several zones (a number whose country spans them) a moment is inside only when it is
 * inside in every zone: the most restrictive reading. Local times come from the zone rules, so a window is right
 * on either side of a daylight-saving change.
 */
public record CallingHours(LocalTime start, LocalTime end) {

    /** 08:00 to 21:00, the legal default in most jurisdictions that set one. */
    public static final CallingHours DEFAULT = new CallingHours(LocalTime.of(8, 0), LocalTime.of(21, 0));
    /** How far ahead an opening is looked for; none within it means the zones never share an open hour. */
    static final int HORIZON_DAYS = 8;

    public CallingHours {
        if (start == null || end == null) {
            throw new DomainRuleViolation("calling hours need a start and an end");
        }
        if (!end.equals(LocalTime.MIDNIGHT) && !start.isBefore(end)) {
            throw new DomainRuleViolation("calling hours must start before they end (end 24:00 for the end of the"
                    + " day): " + text(start) + "-" + text(end));
        }
    }

    /** "HH:MM" each; "24:00" as the end of the day. */
    public static CallingHours parse(String start, String end) {
        return new CallingHours(time("start", start, false), time("end", end, true));
    }

    private static LocalTime time(String name, String value, boolean endOfDay) {
        if (value == null || value.isBlank()) {
            throw new DomainRuleViolation(name + " is required (HH:MM)");
        }
        if (endOfDay && value.strip().equals("24:00")) {
            return LocalTime.MIDNIGHT;
        }
        try {
            LocalTime t = LocalTime.parse(value.strip());
            if (t.getSecond() != 0 || t.getNano() != 0) {
                throw new DomainRuleViolation(name + " must be HH:MM: " + value);
            }
            return t;
        } catch (DateTimeParseException e) {
            throw new DomainRuleViolation(name + " must be HH:MM: " + value);
        }
    }

    public String startText() {
        return text(start);
    }

    public String endText() {
        return end.equals(LocalTime.MIDNIGHT) ? "24:00" : text(end);
    }

    private static String text(LocalTime t) {
        return "%02d:%02d".formatted(t.getHour(), t.getMinute());
    }

    /** Whether {@code other} lies within these hours (a narrowing); anything else widens them. */
    public boolean contains(CallingHours other) {
        boolean endsInside = end.equals(LocalTime.MIDNIGHT)
                || (!other.end.equals(LocalTime.MIDNIGHT) && !other.end.isAfter(end));
        return !other.start.isBefore(start) && endsInside;
    }

    public boolean isOpen(Instant now, Collection<ZoneId> zones) {
        for (ZoneId zone : zones) {
            LocalTime local = now.atZone(zone).toLocalTime();
            if (local.isBefore(start) || (!end.equals(LocalTime.MIDNIGHT) && !local.isBefore(end))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The first moment at or after {@code now} inside the hours in every zone; empty when there is none within
     * {@value #HORIZON_DAYS} days (zones too far apart to share an open hour). The intersection opens when its last
     * zone opens, so the candidates are each zone's daily start.
     */
    public Optional<Instant> nextOpening(Instant now, Collection<ZoneId> zones) {
        if (isOpen(now, zones)) {
            return Optional.of(now);
        }
        List<Instant> candidates = new ArrayList<>();
        for (ZoneId zone : zones) {
            LocalDate today = now.atZone(zone).toLocalDate();
            for (int d = 0; d <= HORIZON_DAYS; d++) {
                // a start inside a spring-forward gap opens when the clocks jump past it
                LocalDateTime local = today.plusDays(d).atTime(start);
                ZoneOffsetTransition gap = zone.getRules().getTransition(local);
                Instant opening = gap != null && gap.isGap() ? gap.getInstant()
                        : ZonedDateTime.of(local, zone).toInstant();
                if (opening.isAfter(now)) {
                    candidates.add(opening);
                }
            }
        }
        return candidates.stream().sorted().filter(t -> isOpen(t, zones)).findFirst();
    }

    /** The zones to read the hours in: the contact's own, else its number's, else the fallback. */
    public static List<ZoneId> zonesOf(String contactTimezone, List<ZoneId> numberZones, ZoneId fallback) {
        if (contactTimezone != null && !contactTimezone.isBlank()) {
            try {
                return List.of(ZoneId.of(contactTimezone.strip()));
            } catch (DateTimeException e) {
                // validated at import; an unknown zone falls through to the number's
            }
        }
        return numberZones.isEmpty() ? List.of(fallback) : List.copyOf(numberZones);
    }
}
