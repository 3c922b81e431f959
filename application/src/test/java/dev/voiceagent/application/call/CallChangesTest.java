package dev.voiceagent.application.call;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.workflow.RunCompletions;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.webhook.WebhookEvent.RunCompleted;
import dev.voiceagent.domain.workflow.VersionStatus;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The webhook events a call's change raises, decided in the application and handed to the committing port. */
class CallChangesTest {

    private static final Instant T0 = Instant.parse("2026-11-25T10:00:00Z");
    private static final WorkflowDefinition DEFINITION = WorkflowDefinition.of(Map.of("nodes", List.of(
            Map.of("id", "crm", "type", "webhook", "data", Map.of("endpoint_url", "https://crm.example/x"))),
            "edges", List.of()));

    private final List<List<WebhookEvent>> committed = new ArrayList<>();
    private int versionReads;

    private CallChanges changes() {
        CallRepository calls = (CallRepository) Proxy.newProxyInstance(CallRepository.class.getClassLoader(),
                new Class<?>[] {CallRepository.class}, (proxy, method, args) -> {
                    if (!method.getName().equals("applyReport")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    @SuppressWarnings("unchecked")
                    List<WebhookEvent> events = (List<WebhookEvent>) args[4];
                    committed.add(events);
                    return Uni.createFrom().item(true);
                });
        WorkflowRepository workflows = (WorkflowRepository) Proxy.newProxyInstance(
                WorkflowRepository.class.getClassLoader(), new Class<?>[] {WorkflowRepository.class},
                (proxy, method, args) -> {
                    if (!method.getName().equals("findVersion")) {
                        throw new UnsupportedOperationException(method.getName());
                    }
                    versionReads++;
                    return Uni.createFrom().item(Optional.of(new WorkflowVersion(3L, 1, VersionStatus.PUBLISHED,
                            DEFINITION, Map.of(), Map.of(), T0, T0)));
                });
        return new CallChanges(calls, new RunCompletions(workflows));
    }

    private static CallRecord call(CallStatus status, CampaignAttempt campaign) {
        WorkflowRun run = new WorkflowRun(70L, 1, 2, 3, "WR-1", "simulator", "outbound", "initialized", false, null,
                null, null, null, Map.of(), null, null, null, campaign == null ? null : campaign.campaignId(), T0);
        return new CallRecord(new CallAttempt(5L, 1, 70, "c-1", status, T0, null, null, null), run,
                Provider.SIMULATOR, 4L, "+15550100", "+15550199", campaign);
    }

    private static CallAttempt reported(CallRecord call, CallStatus status, Instant at) {
        return call.attempt().report(status, at, null).attempt();
    }

    @Test
    void aRingingReportRaisesOnlyTheCallsStatus() {
        CallRecord call = call(CallStatus.INITIATED, null);
        assertThat(changes().commit(call, reported(call, CallStatus.RINGING, T0.plusSeconds(1)), null)
                .await().indefinitely()).isTrue();
        assertThat(committed).singleElement().satisfies(events -> assertThat(events).singleElement()
                .satisfies(e -> {
                    assertThat(e.type()).isEqualTo("call.status");
                    assertThat(e.data()).containsEntry("status", "ringing").containsEntry("previous_status",
                            "initiated").doesNotContainKey("campaign_id");
                }));
        assertThat(versionReads).as("no completion, no definition read").isZero();
    }

    @Test
    void aCampaignCallsFinalReportRaisesTheContactsOutcomeTheStatusThenTheRunsCompletionWithItsNodes() {
        CampaignAttempt attempt = new CampaignAttempt(9, 11, 2);
        CallRecord call = call(CallStatus.IN_PROGRESS, attempt);
        CallAttempt after = reported(call, CallStatus.COMPLETED, T0.plusSeconds(30));
        changes().commit(call, after, new ContactEffect(attempt, null, true, null, null)).await().indefinitely();
        List<WebhookEvent> events = committed.getFirst();
        assertThat(events).extracting(WebhookEvent::type)
                .containsExactly("contact.completed", "call.status", "run.completed");
        assertThat(events).allSatisfy(e -> assertThat(e.at()).isEqualTo(after.endedAt()));
        assertThat(events.get(1).data()).containsEntry("campaign_id", 9L);
        assertThat(events.get(2)).isInstanceOfSatisfying(RunCompleted.class, completed -> {
            assertThat(completed.webhookNodeIds()).containsExactly("crm");
            assertThat(completed.run().completed()).isTrue();
        });
    }

    @Test
    void aContactThatWillBeRetriedRaisesNoContactEventAndAFailedCallRaisesContactFailed() {
        CampaignAttempt attempt = new CampaignAttempt(9, 11, 1);
        CallRecord call = call(CallStatus.RINGING, attempt);
        CallAttempt busy = reported(call, CallStatus.BUSY, T0.plusSeconds(5));
        changes().commit(call, busy, new ContactEffect(attempt, T0.plusSeconds(600), false, null, null))
                .await().indefinitely();
        changes().commit(call, busy, new ContactEffect(attempt, null, false, null, null)).await().indefinitely();
        assertThat(committed.get(0)).extracting(WebhookEvent::type).containsExactly("call.status", "run.completed");
        assertThat(committed.get(1)).extracting(WebhookEvent::type)
                .containsExactly("contact.failed", "call.status", "run.completed");
    }

    @Test
    void aRunAlreadyCompletedIsNotAnnouncedAgain() {
        CallRecord call = call(CallStatus.IN_PROGRESS, null);
        WorkflowRun completed = new WorkflowRun(70L, 1, 2, 3, "WR-1", "simulator", "outbound", "completed", true,
                null, null, null, null, Map.of(), null, null, null, null, T0);
        CallRecord late = new CallRecord(call.attempt(), completed, call.provider(), call.configurationId(),
                call.fromNumber(), call.toNumber());
        changes().commit(late, reported(late, CallStatus.COMPLETED, T0.plusSeconds(30)), null).await().indefinitely();
        assertThat(committed.getFirst()).extracting(WebhookEvent::type).containsExactly("call.status");
    }
}
