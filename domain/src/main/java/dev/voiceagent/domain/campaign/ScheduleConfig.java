package dev.voiceagent.domain.campaign;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.List;
import java.util.Objects;

/** Days and hours in which a campaign may place calls, in an IANA time zone. */
public record ScheduleConfig(boolean enabled, ZoneId timezone, List<TimeSlot> slots) {

    public static final int MAX_SLOTS = 50;

    public ScheduleConfig {
        Objects.requireNonNull(timezone, "timezone");
        slots = List.copyOf(Objects.requireNonNull(slots, "slots"));
        if (slots.isEmpty() || slots.size() > MAX_SLOTS) {
            throw new DomainRuleViolation("slots must hold between 1 and " + MAX_SLOTS + " time slots");
        }
    }

    public static ZoneId zone(String name) {
        if (name == null || name.isBlank()) {
            throw new DomainRuleViolation("Invalid timezone: " + name);
        }
        try {
            return ZoneId.of(name);
        } catch (DateTimeException e) {
            throw new DomainRuleViolation("Invalid timezone: " + name);
        }
    }
}
