package dev.voiceagent.application.health;

import io.smallrye.mutiny.Uni;

/** The autoscaler's signal: live calls of the whole fleet plus a warm buffer; unavailable, never 0, on failure. */
public interface GetAutoscaleMetricUseCase {

    Uni<Long> autoscaleMetric(long buffer);
}
