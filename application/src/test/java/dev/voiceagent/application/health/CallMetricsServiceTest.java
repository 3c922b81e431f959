package dev.voiceagent.application.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class CallMetricsServiceTest {

    @Test
    void theValueIsTheFleetsCallsPlusANonNegativeBuffer() {
        assertThat(CallMetricsService.autoscaleValue(5, 0)).isEqualTo(5);
        assertThat(CallMetricsService.autoscaleValue(5, 20)).isEqualTo(25);
        assertThat(CallMetricsService.autoscaleValue(0, 10)).isEqualTo(10);
        assertThat(CallMetricsService.autoscaleValue(5, -3)).isEqualTo(5);
    }

    @Test
    void anUnreadableLedgerIsUnavailableNeverZero() {
        CallCounts down = new CallCounts() {
            @Override
            public Uni<Long> fleetActive(Instant staleBefore) {
                return Uni.createFrom().failure(new IllegalStateException("connection refused"));
            }

            @Override
            public Uni<Long> thisReplicaActive(Instant staleBefore) {
                return fleetActive(staleBefore);
            }
        };
        CallMetricsService service = new CallMetricsService(down, Clock.systemUTC(), Duration.ofHours(2));
        assertThatThrownBy(() -> service.autoscaleMetric(3).await().indefinitely())
                .isInstanceOf(ServiceUnavailableException.class).hasMessage("Fleet call count unavailable");
    }
}
