package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.domain.telephony.Provider;
import io.smallrye.mutiny.Uni;
import dev.voiceagent.domain.webhook.WebhookEvent;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/** Out-port: calls, counted exactly for concurrency limits whatever the number of replicas. */
public interface CallRepository {

    /** The organization's own limit, when one is configured. */
    Uni<Optional<Integer>> organizationLimit(long organizationId);

    /**
     * Under a per-organization lock: counts the organization's active calls (younger than
     * {@code stale}); below {@code limit}, stores the run and the call together and returns them.
     */
    Uni<Optional<CallRecord>> reserve(long organizationId, int limit, Duration stale, WorkflowRun run, CallRecord call);

    Uni<Void> attachProviderCallId(long callId, String providerCallId);

    Uni<Optional<CallRecord>> findByRun(long runId);

    /** The run of the call the provider knows by this id (an inbound call's later events name only it). */
    Uni<Optional<Long>> runIdOfProviderCall(Provider provider, String providerCallId);

    /**
     * In one transaction, only if the call is still as {@code before} says (a concurrent change wins otherwise:
     * false, nothing written): the call's new state, the run's outcome, the campaign contact's {@code effect}
     * (retry or finish, the campaign's counters, an optional log entry; null for a single call) and the webhook
     * {@code events} the change raises. Use {@link CallChanges}, which decides the events. A run that {@code runAfter}
     * completes is left open, its values merged, while a voice session holds its media (a heartbeat within
     * {@code VoiceRunStore.STALE}): the session completes it when it finishes, with what the call gathered, and its
     * run.completed goes out then; so does none of {@code events}' run.completed here, nor when the run was completed
     * since {@code before} was read.
     */
    Uni<Boolean> applyReport(CallRecord before, CallAttempt after, WorkflowRun runAfter, ContactEffect effect,
            List<WebhookEvent> events);

    Uni<Boolean> alreadyApplied(String provider, String dedupKey);

    /** Recorded after the change commits, so a retried report after a failure is not taken for a duplicate. */
    Uni<Void> markApplied(String provider, String dedupKey, long callId);
}
