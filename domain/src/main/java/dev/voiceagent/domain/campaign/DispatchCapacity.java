package dev.voiceagent.domain.campaign;

/**
 * How many new calls a campaign may place now: its own cap (max_concurrency, else the organization's
 * limit) minus its active calls, and never more than the organization has left under its limit,
 * active calls of every source (campaigns, single calls) counted.
 */
public final class DispatchCapacity {

    private DispatchCapacity() {
    }

    public static int freeSlots(Integer maxConcurrency, long campaignActive, int organizationLimit,
            long organizationActive) {
        long cap = maxConcurrency != null ? Math.min(maxConcurrency, organizationLimit) : organizationLimit;
        long free = Math.min(cap - campaignActive, organizationLimit - organizationActive);
        return (int) Math.max(0, free);
    }
}
