package dev.voiceagent.domain.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.DayOfWeek;
import java.time.Instant;
import java.time.ZoneId;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CampaignModelTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void statesHaveLowerCaseWireNamesAndTwoTerminalOnes() {
        assertThat(CampaignState.values()).extracting(CampaignState::wireName)
                .containsExactly("created", "syncing", "running", "paused", "completed", "failed");
        assertThat(CampaignState.fromWireName("paused")).contains(CampaignState.PAUSED);
        assertThat(CampaignState.fromWireName("draft")).isEmpty();
        assertThat(CampaignState.COMPLETED.isTerminal()).isTrue();
        assertThat(CampaignState.FAILED.isTerminal()).isTrue();
        assertThat(CampaignState.PAUSED.isTerminal()).isFalse();
    }

    @Test
    void retryConfigRangesAreEnforced() {
        assertThatThrownBy(() -> new RetryConfig(true, 11, 120, true, true, true)).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> new RetryConfig(true, -1, 120, true, true, true)).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> new RetryConfig(true, 1, 29, true, true, true)).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> new RetryConfig(true, 1, 3601, true, true, true)).isInstanceOf(DomainRuleViolation.class);
        assertThat(new RetryConfig(false, 10, 3600, false, false, false).maxRetries()).isEqualTo(10);
        assertThat(RetryConfig.DEFAULT).isEqualTo(new RetryConfig(true, 1, 120, true, true, false));
    }

    @Test
    void timeSlotsUseRealHoursAndMinutesAndMondayIsZero() {
        TimeSlot slot = TimeSlot.of(0, "09:00", "17:30");
        assertThat(slot.day()).isEqualTo(DayOfWeek.MONDAY);
        assertThat(TimeSlot.of(6, "00:00", "23:59").day()).isEqualTo(DayOfWeek.SUNDAY);
        assertThat(slot.startText()).isEqualTo("09:00");
        assertThat(slot.endText()).isEqualTo("17:30");
        // the reference checks only the \d{2}:\d{2} pattern; these would slip through there
        assertThatThrownBy(() -> TimeSlot.of(0, "25:00", "26:00")).hasMessageContaining("real time");
        assertThatThrownBy(() -> TimeSlot.of(0, "09:75", "10:00")).hasMessageContaining("real time");
        assertThatThrownBy(() -> TimeSlot.of(0, "9:00", "10:00")).hasMessageContaining("HH:MM");
        assertThatThrownBy(() -> TimeSlot.of(0, "10:00", "10:00")).hasMessage("start_time must be before end_time");
        assertThatThrownBy(() -> TimeSlot.of(7, "09:00", "10:00")).isInstanceOf(DomainRuleViolation.class);
    }

    @Test
    void scheduleNeedsAnIanaZoneAndOneToFiftySlots() {
        assertThat(ScheduleConfig.zone("Europe/Berlin")).isEqualTo(ZoneId.of("Europe/Berlin"));
        assertThatThrownBy(() -> ScheduleConfig.zone("Mars/Olympus")).hasMessage("Invalid timezone: Mars/Olympus");
        assertThatThrownBy(() -> new ScheduleConfig(true, ZoneId.of("UTC"), List.of()))
                .isInstanceOf(DomainRuleViolation.class);
        List<TimeSlot> many = java.util.stream.IntStream.range(0, 51).mapToObj(i -> TimeSlot.of(i % 7, "09:00", "10:00")).toList();
        assertThatThrownBy(() -> new ScheduleConfig(true, ZoneId.of("UTC"), many)).isInstanceOf(DomainRuleViolation.class);
    }

    @Test
    void circuitBreakerRangesAndTheReportedDefault() {
        assertThat(CircuitBreakerConfig.NONE).isEqualTo(new CircuitBreakerConfig(false, 0.5, 120, 5));
        assertThatThrownBy(() -> new CircuitBreakerConfig(true, 1.5, 120, 5)).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> new CircuitBreakerConfig(true, Double.NaN, 120, 5)).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> new CircuitBreakerConfig(true, 0.5, 29, 5)).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> new CircuitBreakerConfig(true, 0.5, 120, 0)).isInstanceOf(DomainRuleViolation.class);
    }

    @Test
    void aNewCampaignStartsCreatedWithTheDefaultRetryAndNoBreaker() {
        Campaign campaign = Campaign.create(1, 2, "Spring promo", 3, null, "campaigns/1/x.csv", null, null, null, null, NOW);
        assertThat(campaign.state()).isEqualTo(CampaignState.CREATED);
        assertThat(campaign.retryConfig()).isEqualTo(RetryConfig.DEFAULT);
        assertThat(campaign.sourceType()).isEqualTo("csv");
        assertThat(campaign.totalRows()).isNull();
        assertThat(campaign.logs()).isEmpty();
        // reporting and behaviour agree: no stored breaker means a disabled one (the reference runs an enabled one)
        assertThat(campaign.effectiveCircuitBreaker().enabled()).isFalse();
    }

    @Test
    void campaignInvariants() {
        assertThatThrownBy(() -> Campaign.create(1, 2, " ", 3, null, "k", null, null, null, null, NOW))
                .isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> Campaign.create(1, 2, "x".repeat(256), 3, null, "k", null, null, null, null, NOW))
                .isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> Campaign.create(1, 2, "ok", 3, null, "k", null, 101, null, null, NOW))
                .isInstanceOf(DomainRuleViolation.class);
    }

    @Test
    void logEntriesAreImmutableCopies() {
        var details = new java.util.HashMap<String, Object>(Map.of("error", "boom"));
        CampaignLogEntry entry = new CampaignLogEntry(NOW, LogLevel.ERROR, "source_sync_failed", "Sync failed", details);
        details.put("error", "changed");
        assertThat(entry.details()).containsEntry("error", "boom");
        assertThatThrownBy(() -> entry.details().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
        assertThat(LogLevel.fromWireName("warning")).isEqualTo(LogLevel.WARNING);
    }

    @Test
    void anUpdateChangesOnlyTheGivenSettingsAndIsRefusedOnceFinished() {
        Campaign campaign = Campaign.create(1, 2, "Spring promo", 3, null, "campaigns/1/x.csv", null, 4, null, null, NOW)
                .withId(7);
        RetryConfig retry = new RetryConfig(true, 3, 300, true, false, true);
        CampaignTransition change = campaign.update("  Autumn promo ", retry, null, null, null, NOW.plusSeconds(1));
        Campaign updated = change.campaign();
        assertThat(updated.name()).isEqualTo("Autumn promo");
        assertThat(updated.retryConfig()).isEqualTo(retry);
        assertThat(updated.maxConcurrency()).isEqualTo(4);
        assertThat(updated.state()).isEqualTo(CampaignState.CREATED);
        assertThat(change.entry().event()).isEqualTo("updated");
        assertThat(change.entry().details()).containsEntry("changed", List.of("name", "retry_config"));
        assertThat(updated.logs()).containsExactly(change.entry());
        assertThatThrownBy(() -> campaign.update(" ", null, null, null, null, NOW)).isInstanceOf(DomainRuleViolation.class);

        Campaign completed = campaign.start(NOW).campaign().contactsLoaded(0, NOW).campaign();
        assertThatThrownBy(() -> completed.update("x", null, null, null, null, NOW))
                .hasMessage("Cannot update a completed campaign");
        Campaign failed = campaign.start(NOW).campaign().fail(NOW, "source_sync_failed", "gone", null).campaign();
        assertThatThrownBy(() -> failed.update(null, null, 2, null, null, NOW)).hasMessage("Cannot update a failed campaign");
    }

    @Test
    void aRedialCopiesTheSettingsAndTheTelephonyConfigurationOfACompletedCampaign() {
        Campaign parent = Campaign.create(1, 2, "x".repeat(255), 3, 44L, "campaigns/1/x.csv", null, 4, null, null, NOW)
                .withId(7);
        assertThatThrownBy(() -> parent.redial(null, null, List.of("busy"), NOW))
                .hasMessage("Only completed campaigns can be redialed (current state: created)");
        Campaign completed = parent.start(NOW).campaign().contactsLoaded(0, NOW).campaign();
        Campaign child = completed.redial(null, null, List.of("busy", "voicemail"), NOW.plusSeconds(5));
        assertThat(child.name()).hasSize(255).endsWith(" (Redial)");
        assertThat(child.parentCampaignId()).isEqualTo(7);
        assertThat(child.telephonyConfigurationId()).isEqualTo(44L);
        assertThat(child.maxConcurrency()).isEqualTo(4);
        assertThat(child.retryConfig()).isEqualTo(completed.retryConfig());
        assertThat(child.state()).isEqualTo(CampaignState.CREATED);
        assertThat(child.logs()).singleElement().satisfies(e -> assertThat(e.details())
                .containsEntry("parent_campaign_id", 7L).containsEntry("outcomes", List.of("busy", "voicemail")));
        // the redial starts straight into running: its contacts are there already
        assertThat(child.withId(8).start(NOW).campaign().state()).isEqualTo(CampaignState.RUNNING);
        assertThat(completed.redial("Second go", null, List.of("no-answer"), NOW).name()).isEqualTo("Second go");
        assertThatThrownBy(() -> completed.redial(null, null, List.of(), NOW)).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> completed.redial(null, null, List.of("completed"), NOW))
                .isInstanceOf(DomainRuleViolation.class);
        Campaign redialed = new Campaign(7L, 1, "p", 3, 2L, 44L, "csv", "k", CampaignState.COMPLETED, 0, 0, 0,
                RetryConfig.DEFAULT, null, null, null, null, 9L, NOW, NOW, NOW, List.of());
        assertThatThrownBy(() -> redialed.redial(null, null, List.of("busy"), NOW))
                .hasMessage("This campaign has already been redialed");
    }
}
