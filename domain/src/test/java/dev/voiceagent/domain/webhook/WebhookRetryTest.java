package dev.voiceagent.domain.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class WebhookRetryTest {

    @Test
    void networkErrors408429And5xxAreRetriedOthersAreFinal() {
        assertThat(WebhookRetry.after(1, null, null, 0.5)).contains(Duration.ofSeconds(5));
        assertThat(WebhookRetry.after(1, 408, null, 0.5)).isPresent();
        assertThat(WebhookRetry.after(1, 429, null, 0.5)).isPresent();
        assertThat(WebhookRetry.after(1, 503, null, 0.5)).isPresent();
        assertThat(WebhookRetry.after(1, 400, null, 0.5)).isEmpty();
        assertThat(WebhookRetry.after(1, 410, null, 0.5)).isEmpty();
    }

    @Test
    void theScheduleGrowsWithJitterAndEndsAfterAboutADay() {
        assertThat(WebhookRetry.after(2, 500, null, 0.0)).contains(Duration.ofSeconds(48)); // 1 min - 20 %
        assertThat(WebhookRetry.after(2, 500, null, 0.999999)).hasValueSatisfying(
                d -> assertThat(d).isBetween(Duration.ofSeconds(71), Duration.ofSeconds(72)));
        Duration total = WebhookRetry.SCHEDULE.stream().reduce(Duration.ZERO, Duration::plus);
        assertThat(total).isBetween(Duration.ofHours(23), Duration.ofHours(25));
        assertThat(WebhookRetry.after(WebhookRetry.SCHEDULE.size(), 500, null, 0.5)).isPresent();
        assertThat(WebhookRetry.after(WebhookRetry.SCHEDULE.size() + 1, 500, null, 0.5)).isEmpty(); // dead letter
    }

    @Test
    void aLongerRetryAfterIsHonouredUpToACap() {
        assertThat(WebhookRetry.after(1, 429, Duration.ofSeconds(60), 0.5)).contains(Duration.ofSeconds(60));
        assertThat(WebhookRetry.after(1, 429, Duration.ofSeconds(1), 0.5)).contains(Duration.ofSeconds(5));
        assertThat(WebhookRetry.after(1, 503, Duration.ofDays(3), 0.5)).contains(Duration.ofHours(8));
    }
}
