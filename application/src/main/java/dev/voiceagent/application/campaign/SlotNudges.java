package dev.voiceagent.application.campaign;

import io.smallrye.mutiny.Uni;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongFunction;

/**
 * Freed slots filled at once instead of at the next tick, coalesced per organization: a request that arrives while
 * the organization's dispatch runs is folded into one more run after it, so a burst of call ends costs two
 * dispatches, never one per call, and never two at once for one organization in this replica.
 */
final class SlotNudges {

    private static final System.Logger LOG = System.getLogger(SlotNudges.class.getName());

    /** Organizations with a dispatch under way; TRUE when another was asked for meanwhile. */
    private final ConcurrentHashMap<Long, Boolean> running = new ConcurrentHashMap<>();
    private final LongFunction<Uni<Integer>> dispatch;

    SlotNudges(LongFunction<Uni<Integer>> dispatch) {
        this.dispatch = dispatch;
    }

    void nudge(long organizationId) {
        while (true) {
            if (running.putIfAbsent(organizationId, Boolean.FALSE) == null) {
                run(organizationId);
                return;
            }
            if (running.computeIfPresent(organizationId, (org, again) -> Boolean.TRUE) != null) {
                return;
            }
        }
    }

    private void run(long organizationId) {
        dispatch.apply(organizationId).subscribe().with(placed -> after(organizationId), failure -> {
            LOG.log(System.Logger.Level.WARNING, "dispatch for organization {0} failed: {1}", organizationId,
                    failure.toString());
            after(organizationId);
        });
    }

    private void after(long organizationId) {
        if (running.remove(organizationId, Boolean.FALSE)) {
            return;
        }
        running.put(organizationId, Boolean.FALSE); // asked again while running: once more covers every request
        run(organizationId);
    }
}
