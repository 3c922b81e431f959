package dev.voiceagent.domain.telephony;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class CallAttemptTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private static CallAttempt applied(CallAttempt.Outcome outcome) {
        assertThat(outcome).isInstanceOf(CallAttempt.Applied.class);
        return outcome.attempt();
    }

    @Test
    void statusesMoveForwardAndTheDurationIsMeasuredFromAnswer() {
        CallAttempt attempt = CallAttempt.dialing(1, 7, T0);
        attempt = applied(attempt.report(CallStatus.RINGING, T0.plusSeconds(1), null));
        attempt = applied(attempt.report(CallStatus.IN_PROGRESS, T0.plusSeconds(5), null));
        assertThat(attempt.answeredAt()).isEqualTo(T0.plusSeconds(5));
        attempt = applied(attempt.report(CallStatus.COMPLETED, T0.plusSeconds(65), null));
        assertThat(attempt.status()).isEqualTo(CallStatus.COMPLETED);
        assertThat(attempt.durationSeconds()).isEqualTo(60);
        assertThat(attempt.endedAt()).isEqualTo(T0.plusSeconds(65));
    }

    @Test
    void aReportedDurationWinsAndUnansweredCallsLastZeroSeconds() {
        CallAttempt answered = applied(CallAttempt.dialing(1, 7, T0).report(CallStatus.IN_PROGRESS, T0, null));
        assertThat(applied(answered.report(CallStatus.COMPLETED, T0.plusSeconds(100), 42)).durationSeconds()).isEqualTo(42);
        assertThat(applied(CallAttempt.dialing(1, 7, T0).report(CallStatus.BUSY, T0.plusSeconds(3), null))
                .durationSeconds()).isZero();
    }

    @Test
    void duplicateLateAndOutOfOrderReportsChangeNothing() {
        CallAttempt ringing = applied(CallAttempt.dialing(1, 7, T0).report(CallStatus.RINGING, T0, null));
        CallAttempt.Outcome duplicate = ringing.report(CallStatus.RINGING, T0.plusSeconds(1), null);
        assertThat(duplicate).isInstanceOf(CallAttempt.Ignored.class);
        assertThat(duplicate.attempt()).isSameAs(ringing);

        CallAttempt inProgress = applied(ringing.report(CallStatus.IN_PROGRESS, T0.plusSeconds(2), null));
        assertThat(inProgress.report(CallStatus.RINGING, T0.plusSeconds(3), null))
                .isInstanceOf(CallAttempt.Ignored.class).extracting(CallAttempt.Outcome::attempt).isSameAs(inProgress);

        CallAttempt done = applied(inProgress.report(CallStatus.COMPLETED, T0.plusSeconds(9), null));
        for (CallStatus late : CallStatus.values()) {
            CallAttempt.Outcome outcome = done.report(late, T0.plusSeconds(20), 99);
            assertThat(outcome).as(late.wireName()).isInstanceOf(CallAttempt.Ignored.class);
            assertThat(outcome.attempt()).isSameAs(done);
        }
    }

    @Test
    void aFinalStatusMayArriveWithoutTheEarlierOnes() {
        CallAttempt attempt = applied(CallAttempt.dialing(1, 7, T0).report(CallStatus.NO_ANSWER, T0.plusSeconds(30), null));
        assertThat(attempt.status()).isEqualTo(CallStatus.NO_ANSWER);
        assertThat(attempt.status().isUnanswered()).isTrue();
    }

    @Test
    void wireNamesAndAliases() {
        assertThat(CallStatus.NO_ANSWER.wireName()).isEqualTo("no-answer");
        assertThat(CallStatus.fromWireName("no_answer")).contains(CallStatus.NO_ANSWER);
        assertThat(CallStatus.fromWireName("answered")).contains(CallStatus.IN_PROGRESS);
        assertThat(CallStatus.fromWireName("In-Progress")).contains(CallStatus.IN_PROGRESS);
        assertThat(CallStatus.fromWireName("teleported")).isEmpty();
        assertThat(CallStatus.FAILED.isFailure()).isTrue();
        assertThat(CallStatus.BUSY.isFailure()).isFalse();
    }
}
