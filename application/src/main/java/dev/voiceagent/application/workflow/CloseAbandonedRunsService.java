package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.webhook.WebhookEvent;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

public class CloseAbandonedRunsService implements CloseAbandonedRunsUseCase {

    public static final String ABANDONED = "abandoned";
    public static final String MEDIA_LOST = "media_lost";
    /**
     * A call whose replica missed this long of heartbeats (twice the time after which its media may be claimed
     * again) is over: a replica that died mid-call.
     */
    static final Duration ORPHANED_AFTER = Duration.ofSeconds(60);
    static final String MEDIA_LOST_ERROR = "The replica that held the call's media stopped (no heartbeat for "
            + ORPHANED_AFTER.toSeconds() + " s): the call was cut off";
    static final int BATCH = 500;

    private final WorkflowRunRepository runs;
    private final Clock clock;
    private final Duration after;

    public CloseAbandonedRunsService(WorkflowRunRepository runs, Clock clock, Duration after) {
        this.runs = runs;
        this.clock = clock;
        this.after = after;
    }

    /**
     * Each closed run announces its completion (run.completed) to the organization's endpoints; it triggers no
     * webhook node of its workflow, since no conversation took place.
     */
    @Override
    public Uni<Integer> closeAbandoned() {
        Instant now = clock.instant();
        return runs.closeUnstarted(now.minus(after), ABANDONED, BATCH,
                run -> List.of(new WebhookEvent.RunCompleted(now, run, List.of())))
                .chain(unstarted -> runs.closeOrphaned(now.minus(ORPHANED_AFTER), MEDIA_LOST, MEDIA_LOST_ERROR, BATCH,
                        run -> List.of(new WebhookEvent.RunCompleted(now, run, List.of())))
                        .map(orphaned -> unstarted + orphaned));
    }
}
