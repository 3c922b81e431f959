package dev.voiceagent.application.workflow;

import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;

public class CloseAbandonedRunsService implements CloseAbandonedRunsUseCase {

    public static final String ABANDONED = "abandoned";
    static final int BATCH = 500;

    private final WorkflowRunRepository runs;
    private final Clock clock;
    private final Duration after;

    public CloseAbandonedRunsService(WorkflowRunRepository runs, Clock clock, Duration after) {
        this.runs = runs;
        this.clock = clock;
        this.after = after;
    }

    @Override
    public Uni<Integer> closeAbandoned() {
        return runs.closeUnstarted(clock.instant().minus(after), ABANDONED, BATCH);
    }
}
