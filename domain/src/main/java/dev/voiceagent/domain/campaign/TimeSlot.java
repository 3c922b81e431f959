package dev.voiceagent.domain.campaign;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.DayOfWeek;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Objects;

/**
 * A calling window on one day of the week: day 0 is Monday ... 6 is Sunday (the reference's
 * numbering), times are "HH:MM" with real hour and minute ranges, and start is before end
 * (a slot never spans midnight).
 */
public record TimeSlot(int dayOfWeek, LocalTime start, LocalTime end) {

    private static final DateTimeFormatter HH_MM = DateTimeFormatter.ofPattern("HH:mm");

    public TimeSlot {
        if (dayOfWeek < 0 || dayOfWeek > 6) {
            throw new DomainRuleViolation("day_of_week must be between 0 (Monday) and 6 (Sunday)");
        }
        Objects.requireNonNull(start, "start");
        Objects.requireNonNull(end, "end");
        if (!start.isBefore(end)) {
            throw new DomainRuleViolation("start_time must be before end_time");
        }
    }

    public static TimeSlot of(int dayOfWeek, String start, String end) {
        return new TimeSlot(dayOfWeek, parse(start, "start_time"), parse(end, "end_time"));
    }

    private static LocalTime parse(String value, String field) {
        if (value == null || !value.matches("\\d{2}:\\d{2}")) {
            throw new DomainRuleViolation(field + " must be HH:MM");
        }
        try {
            return LocalTime.parse(value, HH_MM);
        } catch (DateTimeParseException e) {
            throw new DomainRuleViolation(field + " must be a real time of day (00:00 to 23:59)");
        }
    }

    public DayOfWeek day() {
        return DayOfWeek.of(dayOfWeek + 1);
    }

    public String startText() {
        return start.format(HH_MM);
    }

    public String endText() {
        return end.format(HH_MM);
    }
}
