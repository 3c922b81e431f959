package dev.voiceagent.domain.campaign;

import dev.voiceagent.domain.calling.CallingHours;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The dispatcher's decision for each contact it claimed, in claim order: dial it now (while the campaign has free
 * slots), put it off to the next opening of its legal calling hours or of the campaign's schedule (at most
 * {@link #MAX_DEFER} ahead, so a changed setting is seen soon), or finish it without a call: its number is on the
 * do-not-call list, or its time zones never share an hour of the calling hours. Pure: the facts come in, the plan
 * goes out; the caller writes it in the organization's transaction.
 */
public final class ContactScreening {

    /** A contact outside its window is looked at again at its next opening, or after this at the latest. */
    public static final Duration MAX_DEFER = Duration.ofMinutes(5);

    /**
     * What to do with the claimed contacts. {@code dial} keeps claim order and holds at most the free slots; the
     * skips carry the log entry each contact leaves in the campaign's log; {@code callingHours} names the deferred
     * contacts held back by legal calling hours, with when those hours open for them (not capped as the deferral is).
     */
    public record Plan(List<DueContact> dial, Map<Long, Instant> defer, Map<Long, CampaignLogEntry> skipDoNotCall,
            Map<Long, CampaignLogEntry> skipNeverOpen, Map<Long, Instant> callingHours) {

        public Plan {
            dial = List.copyOf(dial);
            defer = Collections.unmodifiableMap(new LinkedHashMap<>(defer));
            callingHours = Collections.unmodifiableMap(new LinkedHashMap<>(callingHours));
            skipDoNotCall = Collections.unmodifiableMap(new LinkedHashMap<>(skipDoNotCall));
            skipNeverOpen = Collections.unmodifiableMap(new LinkedHashMap<>(skipNeverOpen));
        }
    }

    private ContactScreening() {
    }

    /**
     * @param hours the legal calling hours in force (the campaign's, else the organization's, else the
     *        installation's)
     * @param zonesOfNumber the time zones a number's region spans (from its prefix), for a contact without its own
     */
    public static Plan screen(List<DueContact> due, Campaign campaign, CallingHours hours, int freeSlots, Instant now,
            Function<String, List<ZoneId>> zonesOfNumber) {
        List<DueContact> dial = new ArrayList<>();
        Map<Long, Instant> defer = new LinkedHashMap<>();
        Map<Long, CampaignLogEntry> doNotCall = new LinkedHashMap<>();
        Map<Long, CampaignLogEntry> neverOpen = new LinkedHashMap<>();
        Map<Long, Instant> callingHours = new LinkedHashMap<>();
        ScheduleConfig schedule = campaign.scheduleConfig();
        ZoneId fallback = schedule != null && schedule.timezone() != null ? schedule.timezone() : ZoneOffset.UTC;
        Instant latest = now.plus(MAX_DEFER);
        for (DueContact contact : due) {
            if (contact.doNotCall()) {
                doNotCall.put(contact.id(), doNotCallEntry(contact, now));
                continue;
            }
            boolean ownZone = contact.timezone() != null && !contact.timezone().isBlank();
            List<ZoneId> local = CallingHours.zonesOf(contact.timezone(),
                    ownZone ? List.of() : zonesOfNumber.apply(contact.phoneNumber()), fallback);
            Optional<Instant> legal = hours.nextOpening(now, local);
            ZoneId zone = zone(contact.timezone());
            if (legal.isEmpty()) {
                neverOpen.put(contact.id(), neverOpenEntry(contact, hours, local, now));
            } else if (legal.get().isAfter(now)) {
                defer.put(contact.id(), earlier(legal.get(), latest));
                callingHours.put(contact.id(), legal.get());
            } else if (!ScheduleWindow.isOpen(schedule, zone, now)) {
                defer.put(contact.id(), earlier(ScheduleWindow.nextOpening(schedule, zone, now).orElse(latest), latest));
            } else if (dial.size() < freeSlots) {
                dial.add(contact);
            }
        }
        return new Plan(dial, defer, doNotCall, neverOpen, callingHours);
    }

    private static Instant earlier(Instant a, Instant b) {
        return a.isBefore(b) ? a : b;
    }

    /** A contact whose number is on the do-not-call list at the claim: never dialed, final, logged. */
    static CampaignLogEntry doNotCallEntry(DueContact contact, Instant now) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("contact_id", contact.id());
        details.put("row_number", contact.rowNumber());
        details.put("phone_number", contact.phoneNumber());
        details.put("reason", "do_not_call");
        return new CampaignLogEntry(now, LogLevel.WARNING, "contact_skipped", "Skipped " + contact.phoneNumber()
                + " (row " + contact.rowNumber() + "): on the organization's do-not-call list", details);
    }

    /** A contact whose zones never share an open hour of the calling hours: it can never be called lawfully. */
    static CampaignLogEntry neverOpenEntry(DueContact contact, CallingHours hours, List<ZoneId> zones, Instant now) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("contact_id", contact.id());
        details.put("row_number", contact.rowNumber());
        details.put("phone_number", contact.phoneNumber());
        details.put("reason", "outside_calling_hours");
        details.put("time_zones", zones.stream().map(ZoneId::getId).toList());
        details.put("calling_hours", hours.startText() + "-" + hours.endText());
        return new CampaignLogEntry(now, LogLevel.WARNING, "contact_skipped", "Skipped " + contact.phoneNumber()
                + " (row " + contact.rowNumber() + "): its time zones " + details.get("time_zones")
                + " never share an hour of the calling hours " + details.get("calling_hours"), details);
    }

    /** The contact's own zone; an unknown one (validated at create) falls back to the campaign's. */
    private static ZoneId zone(String timezone) {
        if (timezone == null || timezone.isBlank()) {
            return null;
        }
        try {
            return ZoneId.of(timezone);
        } catch (DateTimeException e) {
            return null;
        }
    }
}
