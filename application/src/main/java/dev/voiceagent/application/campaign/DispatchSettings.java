package dev.voiceagent.application.campaign;

import dev.voiceagent.domain.calling.CallingHours;
import java.time.Duration;

/**
 * The installation's dispatch settings: the concurrency limit of an organization without its own, how long an
 * unfinished call still counts as live, how long a dialed attempt waits for its outcome before reconciliation asks
 * the provider, and the legal calling hours of organizations that set none.
 */
public record DispatchSettings(int defaultOrgLimit, Duration staleAfter, Duration lease, CallingHours defaultHours) {

    public DispatchSettings {
        defaultOrgLimit = Math.max(1, defaultOrgLimit);
    }
}
