package dev.voiceagent.domain.campaign;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.telephony.CallStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class CampaignPoliciesTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");
    private final RetryConfig retries = new RetryConfig(true, 2, 300, true, true, true);

    @Test
    void busyNoAnswerAndVoicemailAreRetriedUpToMaxRetriesAfterTheDelay() {
        for (CallStatus outcome : List.of(CallStatus.BUSY, CallStatus.NO_ANSWER, CallStatus.VOICEMAIL)) {
            assertThat(RetryPolicy.retryAfter(retries, outcome, 1)).as(outcome.wireName()).contains(Duration.ofSeconds(300));
            assertThat(RetryPolicy.retryAfter(retries, outcome, 2)).contains(Duration.ofSeconds(300));
            assertThat(RetryPolicy.retryAfter(retries, outcome, 3)).as("max_retries extra attempts").isEmpty();
        }
    }

    @Test
    void failedErrorCanceledAndCompletedAreNotRetriedAndFlagsAreHonoured() {
        for (CallStatus outcome : List.of(CallStatus.FAILED, CallStatus.ERROR, CallStatus.CANCELED, CallStatus.COMPLETED)) {
            assertThat(RetryPolicy.retryAfter(retries, outcome, 1)).as(outcome.wireName()).isEmpty();
        }
        RetryConfig noVoicemail = new RetryConfig(true, 2, 60, true, true, false);
        assertThat(RetryPolicy.retryAfter(noVoicemail, CallStatus.VOICEMAIL, 1)).isEmpty();
        assertThat(RetryPolicy.retryAfter(new RetryConfig(false, 2, 60, true, true, true), CallStatus.BUSY, 1)).isEmpty();
        assertThat(RetryPolicy.endsWithoutSuccess(CallStatus.BUSY)).isTrue();
        assertThat(RetryPolicy.endsWithoutSuccess(CallStatus.COMPLETED)).isFalse();
    }

    @Test
    void freeSlotsAreTheSmallerOfTheCampaignsRoomAndTheOrganizationsRoom() {
        assertThat(DispatchCapacity.freeSlots(5, 0, 10, 0)).isEqualTo(5);
        assertThat(DispatchCapacity.freeSlots(5, 3, 10, 3)).isEqualTo(2);
        assertThat(DispatchCapacity.freeSlots(5, 0, 10, 8)).as("other sources use the organization's slots").isEqualTo(2);
        assertThat(DispatchCapacity.freeSlots(null, 4, 10, 4)).as("no cap: the organization's limit").isEqualTo(6);
        assertThat(DispatchCapacity.freeSlots(50, 0, 10, 0)).as("a cap above the limit").isEqualTo(10);
        assertThat(DispatchCapacity.freeSlots(5, 5, 10, 5)).isZero();
        assertThat(DispatchCapacity.freeSlots(5, 7, 10, 12)).as("over the limit (limit lowered): never negative").isZero();
    }

    @Test
    void theBreakerWindowStartsWindowSecondsBackButNeverBeforeTheLastResume() {
        CircuitBreakerConfig config = new CircuitBreakerConfig(true, 0.5, 120, 5);
        assertThat(CircuitBreakerPolicy.windowStart(config, null, T0)).isEqualTo(T0.minusSeconds(120));
        assertThat(CircuitBreakerPolicy.windowStart(config, T0.minusSeconds(300), T0)).isEqualTo(T0.minusSeconds(120));
        assertThat(CircuitBreakerPolicy.windowStart(config, T0.minusSeconds(30), T0)).as("resumed 30 s ago")
                .isEqualTo(T0.minusSeconds(30));
    }

    @Test
    void rowsSkippedByTheImportAreAWarningThatNamesThem() {
        Campaign started = created().start(T0).campaign();
        CampaignTransition loaded = started.contactsLoaded(8, 2, List.of(4, 9), T0.plusSeconds(1));
        assertThat(loaded.campaign().state()).isEqualTo(CampaignState.RUNNING);
        assertThat(loaded.campaign().totalRows()).isEqualTo(8);
        assertThat(loaded.entry().level()).isEqualTo(LogLevel.WARNING);
        assertThat(loaded.entry().message()).isEqualTo("8 contacts loaded; 2 rows skipped (invalid phone number), e.g. rows 4, 9");
        assertThat(loaded.entry().details()).containsEntry("skipped_rows", 2).containsEntry("total_rows", 8);
        assertThat(loaded.campaign().logs().getLast()).isEqualTo(loaded.entry());
        assertThat(started.contactsLoaded(8, 0, List.of(), T0).entry().level()).isEqualTo(LogLevel.INFO);
    }

    @Test
    void theBreakerTripsAtItsBoundariesOnly() {
        CircuitBreakerConfig breaker = new CircuitBreakerConfig(true, 0.5, 120, 5);
        assertThat(CircuitBreakerPolicy.evaluate(breaker, 4, 4)).as("below min_calls_in_window").isEmpty();
        assertThat(CircuitBreakerPolicy.evaluate(breaker, 5, 2)).as("40%").isEmpty();
        assertThat(CircuitBreakerPolicy.evaluate(breaker, 10, 5)).as("exactly the threshold trips").isPresent();
        var trip = CircuitBreakerPolicy.evaluate(breaker, 5, 3).orElseThrow();
        assertThat(trip.failureRate()).isEqualTo(0.6);
        assertThat(trip.calls()).isEqualTo(5);
        assertThat(CircuitBreakerPolicy.evaluate(new CircuitBreakerConfig(false, 0.5, 120, 5), 10, 10)).isEmpty();
        assertThat(CircuitBreakerPolicy.evaluate(new CircuitBreakerConfig(true, 0.0, 120, 1), 10, 0))
                .as("no failures never trips").isEmpty();
        assertThat(CircuitBreakerPolicy.countsAsFailure(CallStatus.FAILED)).isTrue();
        assertThat(CircuitBreakerPolicy.countsAsFailure(CallStatus.ERROR)).isTrue();
        for (CallStatus success : List.of(CallStatus.COMPLETED, CallStatus.BUSY, CallStatus.NO_ANSWER, CallStatus.VOICEMAIL,
                CallStatus.CANCELED)) {
            assertThat(CircuitBreakerPolicy.countsAsFailure(success)).as(success.wireName()).isFalse();
        }
    }

    private static Campaign created() {
        return Campaign.create(1, 2, "Promo", 3, 4L, "campaigns/1/a.csv", null, 5, null,
                new CircuitBreakerConfig(true, 0.5, 120, 5), T0).withId(9);
    }

    @Test
    void theLifecycleWritesALogEntryForEveryChange() {
        CampaignTransition started = created().start(T0.plusSeconds(1));
        assertThat(started.campaign().state()).isEqualTo(CampaignState.SYNCING);
        assertThat(started.campaign().startedAt()).isEqualTo(T0.plusSeconds(1));
        assertThat(started.entry().event()).isEqualTo("started");
        assertThat(started.entry().details()).containsEntry("from", "created").containsEntry("to", "syncing");

        CampaignTransition loaded = started.campaign().contactsLoaded(200, T0.plusSeconds(2));
        assertThat(loaded.campaign().state()).isEqualTo(CampaignState.RUNNING);
        assertThat(loaded.campaign().totalRows()).isEqualTo(200);

        CampaignTransition paused = loaded.campaign().pause(T0.plusSeconds(3), null);
        CampaignTransition resumed = paused.campaign().resume(T0.plusSeconds(4));
        CampaignTransition done = resumed.campaign().complete(T0.plusSeconds(5));
        assertThat(done.campaign().state()).isEqualTo(CampaignState.COMPLETED);
        assertThat(done.campaign().completedAt()).isEqualTo(T0.plusSeconds(5));
        assertThat(done.campaign().logs()).extracting(CampaignLogEntry::event)
                .containsExactly("started", "contacts_loaded", "paused", "resumed", "completed");
    }

    @Test
    void aPauseDuringSyncingSticksAndAnEmptySourceCompletes() {
        Campaign syncing = created().start(T0).campaign();
        Campaign paused = syncing.pause(T0.plusSeconds(1), null).campaign();
        CampaignTransition loaded = paused.contactsLoaded(10, T0.plusSeconds(2));
        assertThat(loaded.campaign().state()).as("the reference overwrote the pause").isEqualTo(CampaignState.PAUSED);
        assertThat(syncing.contactsLoaded(0, T0).campaign().state()).isEqualTo(CampaignState.COMPLETED);
    }

    @Test
    void wrongTransitionsCarryTheReferencesMessages() {
        Campaign running = created().start(T0).campaign().contactsLoaded(1, T0).campaign();
        assertThatThrownBy(() -> running.start(T0)).isInstanceOf(DomainRuleViolation.class)
                .hasMessage("Campaign must be in 'created' state to start, current state: running");
        assertThatThrownBy(() -> created().pause(T0, null))
                .hasMessage("Campaign must be in 'running' or 'syncing' state to pause, current state: created");
        assertThatThrownBy(() -> running.resume(T0))
                .hasMessage("Campaign must be in 'paused' state to resume, current state: running");
        Campaign done = running.complete(T0).campaign();
        assertThatThrownBy(() -> done.fail(T0, "batch_failed", "x", null)).hasMessage("Campaign is already completed");
    }

    @Test
    void aRedialStartsRunningAndABreakerTripPausesWithItsFigures() {
        Campaign redial = new Campaign(null, 1, "Promo (Redial)", 3, 2L, 4L, "csv", "k", CampaignState.CREATED, 3, 0, 0,
                RetryConfig.DEFAULT, null, null, null, 9L, null, T0, null, null, List.of());
        assertThat(redial.start(T0).campaign().state()).isEqualTo(CampaignState.RUNNING);
        Campaign running = created().start(T0).campaign().contactsLoaded(20, T0).campaign();
        var trip = CircuitBreakerPolicy.evaluate(running.effectiveCircuitBreaker(), 6, 4).orElseThrow();
        CampaignTransition tripped = running.tripBreaker(trip, List.of("+15550001: failed"), T0.plusSeconds(9));
        assertThat(tripped.campaign().state()).isEqualTo(CampaignState.PAUSED);
        assertThat(tripped.entry().level()).isEqualTo(LogLevel.WARNING);
        assertThat(tripped.entry().details()).containsEntry("calls", 6L).containsEntry("failures", 4L)
                .containsEntry("threshold", 0.5).containsEntry("recent_failures", List.of("+15550001: failed"));
        assertThat(tripped.entry().message()).contains("67%").contains("4 of 6");
    }
}
