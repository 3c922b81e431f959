package dev.voiceagent.domain.campaign;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.DayOfWeek;
import java.time.LocalTime;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A calling window on one day of the week: day 0 is Monday ... 6 is Sunday (the reference's
 * numbering), times are "HH:MM" with real hour and minute ranges, and start is before end
 * (a slot never spans midnight).
 */
public record TimeSlot(int dayOfWeek, LocalTime start, LocalTime end) {

    private static final Pattern HH_MM_SHAPE = Pattern.compile("\\d{2}:\\d{2}");

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
        if (value == null || !HH_MM_SHAPE.matcher(value).matches()) {
            throw new DomainRuleViolation(field + " must be HH:MM");
        }
        int hour = Integer.parseInt(value, 0, 2, 10);
        int minute = Integer.parseInt(value, 3, 5, 10);
        if (hour > 23 || minute > 59) {
            throw new DomainRuleViolation(field + " must be a real time of day (00:00 to 23:59)");
        }
        return LocalTime.of(hour, minute);
    }

    public DayOfWeek day() {
        return DayOfWeek.of(dayOfWeek + 1);
    }

    public String startText() {
        return text(start);
    }

    public String endText() {
        return text(end);
    }

    /** HH:mm without a formatter (the campaign list writes two per slot per campaign). */
    private static String text(LocalTime time) {
        int h = time.getHour();
        int m = time.getMinute();
        return new String(new char[] {(char) ('0' + h / 10), (char) ('0' + h % 10), ':', (char) ('0' + m / 10),
                (char) ('0' + m % 10)});
    }
}
