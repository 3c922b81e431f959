package dev.voiceagent.domain.campaign;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.domain.calling.CallingHours;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The dispatcher's per-contact decision: dial, defer to the next opening, or skip for good. */
class ContactScreeningTest {

    // Monday 2026-11-23 15:00 UTC: 10:00 in New York, 16:00 in Berlin, 00:00 (Tuesday) in Tokyo
    private static final Instant NOW = Instant.parse("2026-11-23T15:00:00Z");
    private static final CallingHours HOURS = CallingHours.parse("08:00", "21:00");

    private static Campaign campaign(ScheduleConfig schedule) {
        return new Campaign(9L, 1, "Promo", 3, 2L, 4L, "csv", "k", CampaignState.RUNNING, 10, 0, 0,
                RetryConfig.DEFAULT, 5, schedule, null, null, null, NOW, NOW, null, List.of());
    }

    private static DueContact contact(long id, String number, String zone) {
        return new DueContact(id, (int) id, number, zone, Map.of(), 0, null, false);
    }

    private static List<ZoneId> noZones(String number) {
        return List.of();
    }

    @Test
    void contactsInsideTheirHoursAreDialedInClaimOrderUpToTheFreeSlots() {
        List<DueContact> due = List.of(contact(1, "+12125550101", "America/New_York"),
                contact(2, "+12125550102", "America/New_York"), contact(3, "+12125550103", "America/New_York"));
        ContactScreening.Plan plan = ContactScreening.screen(due, campaign(null), HOURS, 2, NOW,
                ContactScreeningTest::noZones);
        assertThat(plan.dial()).extracting(DueContact::id).containsExactly(1L, 2L);
        assertThat(plan.defer()).isEmpty();
        assertThat(plan.skipDoNotCall()).isEmpty();
        assertThat(plan.skipNeverOpen()).isEmpty();
    }

    @Test
    void aContactAtNightIsPutOffToItsOpeningButNeverMoreThanFiveMinutes() {
        // Tokyo at midnight: its hours open at 08:00 local (23:00 UTC), far past the five-minute cap
        ContactScreening.Plan plan = ContactScreening.screen(List.of(contact(1, "+81355550101", "Asia/Tokyo")),
                campaign(null), HOURS, 5, NOW, ContactScreeningTest::noZones);
        assertThat(plan.dial()).isEmpty();
        assertThat(plan.defer()).containsExactly(Map.entry(1L, NOW.plus(ContactScreening.MAX_DEFER)));
        assertThat(plan.callingHours()).as("held by its hours, which open at 08:00 Tokyo, uncapped")
                .containsExactly(Map.entry(1L, Instant.parse("2026-11-23T23:00:00Z")));
        // 07:58 in New York: the opening two minutes later comes first
        Instant early = Instant.parse("2026-11-23T12:58:00Z");
        ContactScreening.Plan soon = ContactScreening.screen(List.of(contact(2, "+12125550102", "America/New_York")),
                campaign(null), HOURS, 5, early, ContactScreeningTest::noZones);
        assertThat(soon.defer()).containsExactly(Map.entry(2L, Instant.parse("2026-11-23T13:00:00Z")));
    }

    @Test
    void aClosedCampaignScheduleDefersEvenWithinLegalHours() {
        ScheduleConfig mornings = new ScheduleConfig(true, ZoneId.of("America/New_York"),
                List.of(TimeSlot.of(0, "11:00", "12:00")));
        ContactScreening.Plan plan = ContactScreening.screen(List.of(contact(1, "+12125550101", "America/New_York")),
                campaign(mornings), HOURS, 5, NOW, ContactScreeningTest::noZones);
        assertThat(plan.dial()).isEmpty();
        assertThat(plan.defer()).containsExactly(Map.entry(1L, NOW.plus(ContactScreening.MAX_DEFER)));
        assertThat(plan.callingHours()).as("the campaign's own schedule, not the law").isEmpty();
    }

    @Test
    void aListedNumberIsSkippedAndItsEntrySaysWhy() {
        DueContact listed = new DueContact(7, 12, "+12125550107", null, Map.of(), 0, null, true);
        ContactScreening.Plan plan = ContactScreening.screen(List.of(listed), campaign(null), HOURS, 5, NOW,
                ContactScreeningTest::noZones);
        assertThat(plan.dial()).isEmpty();
        assertThat(plan.skipDoNotCall()).containsOnlyKeys(7L);
        CampaignLogEntry entry = plan.skipDoNotCall().get(7L);
        assertThat(entry.event()).isEqualTo("contact_skipped");
        assertThat(entry.details()).containsEntry("reason", "do_not_call").containsEntry("row_number", 12);
    }

    @Test
    void aNumberWhoseZonesNeverShareAnOpenHourIsSkippedForGood() {
        // a number spanning Honolulu and Guam: 08:00-21:00 in both never overlap
        CallingHours narrow = CallingHours.parse("09:00", "10:00");
        ContactScreening.Plan plan = ContactScreening.screen(List.of(contact(4, "+18085550104", null)),
                campaign(null), narrow, 5, NOW, number -> List.of(ZoneId.of("Pacific/Honolulu"),
                        ZoneId.of("Pacific/Guam")));
        assertThat(plan.skipNeverOpen()).containsOnlyKeys(4L);
        assertThat(plan.skipNeverOpen().get(4L).details()).containsEntry("reason", "outside_calling_hours")
                .containsEntry("time_zones", List.of("Pacific/Honolulu", "Pacific/Guam"));
    }
}
