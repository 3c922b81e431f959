package dev.voiceagent.domain.campaign;

import java.time.Instant;
import java.util.Map;

/**
 * Where a campaign's dispatch stands, beyond the reference's progress fields: contacts by state,
 * finished contacts by the outcome of their last call, live calls, the calling window and the breaker.
 *
 * @param outcomes     finished contacts by the wire name of their last call's status
 * @param windowOpen   whether the campaign's own window (its time zone) is open now
 * @param nextWindowAt when it opens next, if it is closed now (null when open or unscheduled)
 * @param waitingForCallingHours contacts held back by legal calling hours (their own time zones) right now
 * @param nextCallingHoursAt when those hours open next for one of them (null when none waits)
 */
public record DispatchStatus(long pending, long waitingRetry, long dialing, Map<String, Long> outcomes,
        long activeCalls, boolean windowOpen, Instant nextWindowAt, Breaker breaker, long waitingForCallingHours,
        Instant nextCallingHoursAt) {

    public DispatchStatus {
        outcomes = Map.copyOf(outcomes);
    }

    /** The breaker as the dispatcher sees it now: counts over its current window (fresh since the last resume). */
    public record Breaker(boolean enabled, boolean tripped, long callsInWindow, long failuresInWindow,
            double failureRate, double threshold, int windowSeconds, int minCallsInWindow) {
    }

    public static DispatchStatus of(Campaign campaign, long pending, long waitingRetry, long dialing,
            Map<String, Long> outcomes, long activeCalls, long callsInWindow, long failuresInWindow, Instant now,
            long waitingForCallingHours, Instant nextCallingHoursAt) {
        ScheduleConfig schedule = campaign.scheduleConfig();
        boolean open = ScheduleWindow.isOpen(schedule, null, now);
        Instant next = open ? null : ScheduleWindow.nextOpening(schedule, null, now).orElse(null);
        CircuitBreakerConfig config = campaign.effectiveCircuitBreaker();
        boolean tripped = campaign.state() == CampaignState.PAUSED && !campaign.logs().isEmpty()
                && campaign.logs().getLast().event().equals("circuit_breaker_tripped");
        double rate = callsInWindow == 0 ? 0.0 : Math.round(failuresInWindow * 10_000.0 / callsInWindow) / 10_000.0;
        return new DispatchStatus(pending, waitingRetry, dialing, outcomes, activeCalls, open, next,
                new Breaker(config.enabled(), tripped, callsInWindow, failuresInWindow, rate, config.failureThreshold(),
                        config.windowSeconds(), config.minCallsInWindow()), waitingForCallingHours,
                waitingForCallingHours == 0 ? null : nextCallingHoursAt);
    }
}
