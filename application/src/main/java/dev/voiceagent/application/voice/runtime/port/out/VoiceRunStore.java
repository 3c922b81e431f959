package dev.voiceagent.application.voice.runtime.port.out;

import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Out-port: the run a call's media belongs to, as the voice runtime claims, keeps alive and finishes it. */
public interface VoiceRunStore {

    /** Why a media socket is refused (before the upgrade). */
    enum Refusal {
        /** No such run of that workflow in that organization (a 404: nothing is said about other organizations). */
        UNKNOWN,
        /** The run is over. */
        COMPLETED,
        /** Another socket holds the run's media. */
        TAKEN
    }

    /**
     * The claim's answer: the run, now held by this replica, with the checkpoint of the call it continues (null for a
     * new call), or why not.
     */
    record Claim(Optional<WorkflowRun> run, Refusal refusal, CallCheckpoint checkpoint) {

        public static Claim claimed(WorkflowRun run, CallCheckpoint checkpoint) {
            return new Claim(Optional.of(run), null, checkpoint);
        }

        public static Claim refused(Refusal refusal) {
            return new Claim(Optional.empty(), refusal, null);
        }
    }

    /** A run whose media may be streamed again: whose it is. */
    record Reopened(long organizationId, long workflowId) {
    }

    /**
     * Takes the run's media for this replica: the run must be the organization's, of that workflow, not completed,
     * and held by no other socket; it becomes running, with the replica and a heartbeat recorded.
     */
    Uni<Claim> claim(long organizationId, long workflowId, long runId, Instant now);

    /**
     * The call still talks on this replica (every few seconds): a run whose heartbeat stopped for longer than
     * {@link #STALE} may be claimed again (its replica died and the carrier reconnected elsewhere).
     */
    Uni<Void> heartbeat(long runId, Instant now);

    /**
     * As {@link #heartbeat}, and what the carrier's answering-machine detection reported on the call meanwhile (a
     * report another replica received), if anything.
     */
    default Uni<Optional<String>> heartbeatAndAmd(long runId, Instant now) {
        return heartbeat(runId, now).replaceWith(Optional.empty());
    }

    /** Keeps the carrier's answering-machine verdict on a live run (for the replica holding its media). */
    default Uni<Void> carrierAmd(long runId, String verdict) {
        return Uni.createFrom().voidItem();
    }

    Duration STALE = Duration.ofSeconds(30);

    /**
     * Variables the browser's call brings (the dashboard's call_context_vars), added to the initial context of a run
     * this replica holds, before its session starts (a variable of the same name is replaced).
     */
    Uni<Void> addContextVariables(long runId, Map<String, Object> variables);

    /** Where the live call stands after a finished turn, while this replica holds its media. */
    Uni<Void> checkpoint(long runId, CallCheckpoint checkpoint);

    /**
     * This replica lets the call go (it drains, or the carrier's stream broke): its checkpoint is kept and its media
     * released, so the carrier's next stream can be claimed anywhere.
     */
    Uni<Void> release(long runId, CallCheckpoint checkpoint);

    /**
     * The carrier asks to stream the call again (its stream ended without the call ending): the media is released
     * whoever held it (the stream it held is over), unless the run is completed or its media moved {@code maxMoves}
     * times already; empty then.
     */
    Uni<Optional<Reopened>> reopen(long runId, int maxMoves);

    /**
     * What the call leaves on its run when its media ends, merged into what the run holds (a provider's report may
     * complete the run before or after: neither loses the other's values): {@code ended}'s usage_info and
     * gathered_context merged key by key, {@code events} as logs.realtime_feedback_events, the run completed and the
     * media released. {@code webhooks} are enqueued in the same transaction only when this completes the run (a run
     * the provider's report completed first has had its run.completed). True when this completed it.
     */
    Uni<Boolean> finish(WorkflowRun ended, List<Map<String, Object>> events,
            List<WebhookEvent> webhooks, Instant now);
}
