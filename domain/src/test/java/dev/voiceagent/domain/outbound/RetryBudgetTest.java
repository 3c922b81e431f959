package dev.voiceagent.domain.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class RetryBudgetTest {

    private static final RetryBudget SPEECH = new RetryBudget(3, Duration.ofMillis(200), Duration.ofSeconds(2));

    private static Duration ms(long millis) {
        return Duration.ofMillis(millis);
    }

    @Test
    void theBackoffDoublesAfterEachFailureWithJitterBetweenHalfOfItAndAllOfIt() {
        assertThat(SPEECH.next(1, ms(0), null, 0.0)).contains(ms(100));
        assertThat(SPEECH.next(1, ms(0), null, 0.999_999).orElseThrow()).isBetween(ms(199), ms(200));
        assertThat(SPEECH.next(2, ms(300), null, 0.0)).contains(ms(200));
        assertThat(SPEECH.next(2, ms(300), null, 0.5)).contains(ms(300));
        RetryBudget many = new RetryBudget(6, ms(200), Duration.ofSeconds(60));
        assertThat(many.next(5, ms(0), null, 1.0)).contains(ms(3_200));
    }

    @Test
    void theTriesEndWhenTheAttemptsAreSpentOrTheBudgetIsOver() {
        assertThat(SPEECH.next(3, ms(100), null, 0.5)).as("three tries made").isEmpty();
        assertThat(SPEECH.next(2, ms(2_000), null, 0.5)).as("the budget is spent").isEmpty();
        assertThat(SPEECH.next(2, ms(2_500), null, 0.5)).isEmpty();
        assertThat(SPEECH.next(2, ms(1_900), null, 1.0)).as("the backoff cut to what is left").contains(ms(100));
        assertThat(RetryBudget.none().next(1, ms(0), null, 0.5)).isEmpty();
        assertThat(new RetryBudget(3, ms(200), Duration.ZERO).next(1, ms(0), null, 0.5)).isEmpty();
    }

    @Test
    void aRetryAfterIsHonouredWhenItFitsInTheBudgetAndEndsTheTriesWhenItDoesNot() {
        assertThat(SPEECH.next(1, ms(0), Duration.ofSeconds(1), 0.5)).as("Retry-After: 1").contains(ms(1_000));
        assertThat(SPEECH.next(1, ms(0), Duration.ZERO, 0.0)).as("the backoff is longer").contains(ms(100));
        assertThat(SPEECH.next(2, ms(1_500), Duration.ofSeconds(1), 0.5))
                .as("the provider will not serve within what is left").isEmpty();
        assertThat(SPEECH.next(1, ms(0), Duration.ofSeconds(30), 0.5)).isEmpty();
        assertThat(SPEECH.next(1, ms(0), Duration.ofSeconds(2), 0.5)).as("exactly what is left")
                .contains(Duration.ofSeconds(2));
    }

    @Test
    void aRetryAfterHeaderIsSecondsOrAnHttpDate() {
        Instant now = Instant.parse("2026-11-30T10:00:00Z");
        assertThat(RetryBudget.retryAfter("1", now)).isEqualTo(Duration.ofSeconds(1));
        assertThat(RetryBudget.retryAfter(" 120 ", now)).isEqualTo(Duration.ofSeconds(120));
        assertThat(RetryBudget.retryAfter("Mon, 30 Nov 2026 10:00:03 GMT", now)).isEqualTo(Duration.ofSeconds(3));
        assertThat(RetryBudget.retryAfter("Mon, 30 Nov 2026 09:59:00 GMT", now)).as("a date gone by")
                .isEqualTo(Duration.ZERO);
        assertThat(RetryBudget.retryAfter(null, now)).isNull();
        assertThat(RetryBudget.retryAfter("soon", now)).isNull();
        assertThat(RetryBudget.retryAfter("-1", now)).isNull();
    }

    @Test
    void onlyATimeOutTooManyRequestsAndAServersFailureAreWorthAnotherTry() {
        assertThat(RetryBudget.transientStatus(429)).isTrue();
        assertThat(RetryBudget.transientStatus(408)).isTrue();
        assertThat(RetryBudget.transientStatus(500)).isTrue();
        assertThat(RetryBudget.transientStatus(503)).isTrue();
        assertThat(RetryBudget.transientStatus(501)).isFalse();
        assertThat(RetryBudget.transientStatus(400)).isFalse();
        assertThat(RetryBudget.transientStatus(401)).isFalse();
        assertThat(RetryBudget.transientStatus(404)).isFalse();
    }

    @Test
    void aBudgetNeedsOneAttemptAndDurations() {
        assertThatThrownBy(() -> new RetryBudget(0, ms(200), ms(2_000))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new RetryBudget(3, ms(-1), ms(2_000))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> SPEECH.next(0, ms(0), null, 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThat(SPEECH.next(1, ms(-5), null, 0.0)).as("a clock that went back").isEqualTo(Optional.of(ms(100)));
    }
}
