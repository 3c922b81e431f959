package dev.voiceagent.application.call;

import jakarta.inject.Singleton;
import dev.voiceagent.application.workflow.RunCompletions;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallOutcome;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.webhook.WebhookEvent.CallStatusChanged;
import dev.voiceagent.domain.webhook.WebhookEvent.ContactFinished;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * Commits a change of a call (a provider's report, a refused or failed dial): the call's new state, its run's outcome,
 * the campaign contact's effect, and the webhook events they raise, in one transaction of
 * {@link CallRepository#applyReport}. The events, in the order receivers have always seen them: the contact's final
 * outcome (contact.completed / contact.failed), the call's status (call.status), then the run's completion
 * (run.completed and its webhook nodes).
 */
@Singleton
public class CallChanges {

    private final CallRepository calls;
    private final RunCompletions completions;

    public CallChanges(CallRepository calls, RunCompletions completions) {
        this.calls = calls;
        this.completions = completions;
    }

    /** False when another change of the call committed first (nothing written). */
    public Uni<Boolean> commit(CallRecord before, CallAttempt after, ContactEffect effect) {
        WorkflowRun runAfter = CallOutcome.applyTo(before.run(), after);
        Instant at = at(after);
        return completions.events(before.run().completed(), runAfter, at).chain(runEvents -> calls.applyReport(
                before, after, runAfter, effect, events(before, after, effect, at, runEvents)));
    }

    static List<WebhookEvent> events(CallRecord before, CallAttempt after, ContactEffect effect, Instant at,
            List<WebhookEvent> runEvents) {
        List<WebhookEvent> events = new ArrayList<>();
        if (effect != null && effect.finished()) {
            CampaignAttempt a = effect.attempt();
            events.add(new ContactFinished(at, a.campaignId(), a.contactId(), a.attemptNumber(), after.runId(),
                    after.status().wireName(), effect.succeeded()));
        }
        events.add(new CallStatusChanged(at, after.runId(), after.id(), after.status().wireName(),
                before.attempt().status().wireName(), after.durationSeconds(), before.toNumber(),
                before.campaign() == null ? null : before.campaign().campaignId()));
        events.addAll(runEvents);
        return events;
    }

    /** When the change happened: the end, else the answer, else the start. */
    private static Instant at(CallAttempt after) {
        return after.endedAt() != null ? after.endedAt() : after.answeredAt() != null ? after.answeredAt()
                : after.startedAt();
    }
}
