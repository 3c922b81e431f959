package dev.voiceagent.application.health;

import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;

/**
 * The operations figures on live calls: this replica's (the drain signal) and the fleet's plus a
 * warm buffer (the autoscaling signal). When the ledger cannot be read the answer is "unavailable",
 * never 0: a scraped 0 would scale the fleet down during an outage.
 */
public class CallMetricsService implements GetAutoscaleMetricUseCase, CountReplicaCallsUseCase {

    static final String UNAVAILABLE = "Fleet call count unavailable";

    private final CallCounts counts;
    private final Clock clock;
    private final Duration staleAfter;

    public CallMetricsService(CallCounts counts, Clock clock, Duration staleAfter) {
        this.counts = counts;
        this.clock = clock;
        this.staleAfter = staleAfter;
    }

    /** fleet active calls + max(0, buffer). */
    public static long autoscaleValue(long fleetActive, long buffer) {
        return fleetActive + Math.max(0, buffer);
    }

    @Override
    public Uni<Long> autoscaleMetric(long buffer) {
        return counts.fleetActive(clock.instant().minus(staleAfter))
                .onFailure().transform(failure -> new ServiceUnavailableException(UNAVAILABLE, failure))
                .map(fleet -> autoscaleValue(fleet, buffer));
    }

    @Override
    public Uni<Long> thisReplicaActive() {
        return counts.thisReplicaActive(clock.instant().minus(staleAfter))
                .onFailure().transform(failure -> new ServiceUnavailableException("Active call count unavailable", failure));
    }
}
