package dev.voiceagent.deploy.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.call.CallRecord;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.campaign.CampaignRepository;
import dev.voiceagent.application.shared.Leases;
import dev.voiceagent.application.voice.runtime.port.out.VoiceRunStore;
import dev.voiceagent.application.webhook.WebhookEndpointRepository;
import dev.voiceagent.application.webhook.WebhookOutbox;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignState;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallOutcome;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What the SQL-heavy ports promise, held against the Postgres adapters on a real PostgreSQL, with the background
 * ticks off so that only the test claims: a guarded write that lost its race writes nothing (neither its log nor its
 * events); events are written with the change that raised them; concurrent reservations never pass a limit; a
 * claimed delivery belongs to one replica until its lease expires and only its holder settles it. The dispatch
 * ledger's contract is PostgresDispatchLedgerTest's.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@TestProfile(PostgresContractsTest.NoTicks.class)
class PostgresContractsTest {

    /** No scheduler: the dispatcher's and the outbox's own ticks would claim what the test claims. */
    public static class NoTicks implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("quarkus.scheduler.enabled", "false");
        }
    }

    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MICROS);

    @Inject
    CampaignRepository campaigns;
    @Inject
    CallRepository calls;
    @Inject
    WebhookOutbox outbox;
    @Inject
    WebhookEndpointRepository endpoints;
    @Inject
    AgroalDataSource dataSource;
    @Inject
    VoiceRunStore voiceRuns;
    @Inject
    Leases leases;

    private Sql sql;
    private long org;
    private long workflow;
    private long definition;
    private long user;

    @BeforeEach
    void organization() {
        sql = new Sql(dataSource);
        org = sql.organization();
        user = sql.insertReturningId("INSERT INTO users (email, provider_id, selected_organization_id) VALUES (?, ?, ?)",
                "u-" + org + "@contracts.example", "user-" + org, org);
        workflow = sql.workflow(org, "Agent");
        definition = sql.insertReturningId("INSERT INTO workflow_definitions (organization_id, workflow_id,"
                + " version_number, status, workflow_json) VALUES (?, ?, 1, 'published', '{}')", org, workflow);
    }

    private static <T> T await(Uni<T> uni) {
        return uni.await().atMost(Duration.ofSeconds(20));
    }

    private long subscribe(String... types) {
        return await(endpoints.create(org, "https://crm.example.com/hooks", null, List.of(types), true,
                "whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0")).id();
    }

    private long deliveries(String type) {
        return sql.queryLong("SELECT count(*) FROM webhook_deliveries WHERE organization_id = ? AND event_type = ?",
                org, type);
    }

    private Campaign runningCampaign() {
        long config = sql.telephonyConfiguration(org, "Sim");
        Campaign created = await(campaigns.insert(Campaign.create(org, user, "Promo", workflow, config,
                "campaigns/" + org + "/x.csv", null, 5, null, null, NOW)));
        Campaign syncing = created.start(NOW).campaign();
        assertThat(await(campaigns.applyTransition(created, created.start(NOW)))).isTrue();
        assertThat(await(campaigns.applyTransition(syncing, syncing.contactsLoaded(3, NOW)))).isTrue();
        return await(campaigns.findView(org, created.id())).orElseThrow().campaign();
    }

    @Test
    void aLeaseHasOneHolderUntilReleasedOrItsSessionIsLost() {
        String key = "contracts:" + org;
        Leases.Lease first = await(leases.tryAcquire(key)).orElseThrow();
        assertThat(await(leases.tryAcquire(key))).as("held by the first").isEmpty();
        assertThat(await(leases.tryAcquire(key + ":other"))).as("another key is free").isPresent()
                .hasValueSatisfying(other -> await(other.release()));
        assertThat(await(first.held())).isTrue();
        await(first.release());
        Leases.Lease second = await(leases.tryAcquire(key)).orElseThrow();
        // the holder's session ends (its replica gone): the lease is free again, and the holder can tell
        assertThat(sql.queryLong("SELECT count(pg_terminate_backend(pid)) FROM pg_locks WHERE locktype = 'advisory'"
                + " AND objsubid = 1 AND granted AND ((classid::bigint << 32) | objid::bigint) = hashtextextended(?, 1)",
                key)).as("one session holds it").isEqualTo(1);
        assertThat(await(second.held())).as("its connection was lost").isFalse();
        Leases.Lease third = await(leases.tryAcquire(key)).orElseThrow();
        await(third.release());
        await(second.release());
    }

    @Test
    void aTransitionWritesItsLogAndItsEventTogetherAndAStaleOneWritesNothing() {
        subscribe("campaign.paused");
        Campaign running = runningCampaign();
        assertThat(running.state()).isEqualTo(CampaignState.RUNNING);
        int logs = running.logs().size();

        assertThat(await(campaigns.applyTransition(running, running.pause(NOW, null)))).isTrue();
        assertThat(deliveries("campaign.paused")).isOne();
        String payload = sql.queryString("SELECT payload::text FROM webhook_deliveries WHERE organization_id = ?"
                + " AND event_type = 'campaign.paused'", org);
        assertThat(payload).contains("\"previous_state\": \"running\"", "\"state\": \"paused\"");

        // computed from the campaign as it was before the pause: the guard refuses it, and nothing is written
        assertThat(await(campaigns.applyTransition(running, running.pause(NOW, "again")))).isFalse();
        assertThat(deliveries("campaign.paused")).isOne();
        assertThat(await(campaigns.findView(org, running.id())).orElseThrow().campaign().logs())
                .hasSize(logs + 1);
    }

    @Test
    void aRunsMediaIsClaimedOnceKeptByItsHeartbeatAndItsEndMergesAndCompletesOnce() {
        subscribe("run.completed");
        long run = sql.insertReturningId("INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name,"
                + " mode, usage_info, gathered_context) VALUES (?, ?, ?, 'WR-1', 'twilio',"
                + " '{\"call_duration_seconds\": 12}'::jsonb, '{\"first_name\": \"Ann\"}'::jsonb)",
                org, workflow, definition);
        VoiceRunStore.Claim first = await(voiceRuns.claim(org, workflow, run, NOW));
        assertThat(first.run()).isPresent();
        assertThat(sql.queryString("SELECT state FROM workflow_runs WHERE id = ?", run)).isEqualTo("running");
        assertThat(await(voiceRuns.claim(org, workflow, run, NOW.plusSeconds(5))).refusal())
                .isEqualTo(VoiceRunStore.Refusal.TAKEN);
        assertThat(await(voiceRuns.claim(org + 1_000_000, workflow, run, NOW)).refusal())
                .isEqualTo(VoiceRunStore.Refusal.UNKNOWN);
        await(voiceRuns.heartbeat(run, NOW.plusSeconds(25)));
        assertThat(await(voiceRuns.claim(org, workflow, run, NOW.plusSeconds(50))).refusal())
                .as("kept alive by its heartbeat").isEqualTo(VoiceRunStore.Refusal.TAKEN);
        assertThat(await(voiceRuns.claim(org, workflow, run, NOW.plusSeconds(60))).run())
                .as("a replica silent for 30 s has died: the carrier's new socket takes the run").isPresent();

        WorkflowRun snapshot = first.run().get();
        WorkflowRun ended = new WorkflowRun(run, org, workflow, definition, "WR-1", "twilio", "outbound", "completed",
                true, "recordings/" + org + "/runs/" + run + ".wav", "transcripts/" + org + "/" + run + ".txt",
                Map.of("llm", Map.of("openai/gpt", Map.of("total_tokens", 60))),
                null, null, Map.of("call_disposition", "end_call_node"), null, null, null, snapshot.createdAt());
        List<Map<String, Object>> events = List.of(Map.of("type", "rtf-bot-text", "payload", Map.of("text", "Hi")));
        WebhookEvent completed = new WebhookEvent
                .RunCompleted(NOW, ended, List.of());
        assertThat(await(voiceRuns.finish(ended, events, List.of(completed), NOW))).isTrue();
        assertThat(await(voiceRuns.finish(ended, events, List.of(completed), NOW))).as("completed once").isFalse();
        assertThat(deliveries("run.completed")).isEqualTo(1);
        assertThat(sql.queryString("SELECT usage_info::text FROM workflow_runs WHERE id = ?", run))
                .contains("\"call_duration_seconds\": 12", "\"total_tokens\": 60");
        assertThat(sql.queryString("SELECT gathered_context::text FROM workflow_runs WHERE id = ?", run))
                .contains("\"first_name\": \"Ann\"", "\"call_disposition\": \"end_call_node\"");
        assertThat(sql.queryString("SELECT logs->'realtime_feedback_events'->0->>'type' FROM workflow_runs WHERE id = ?",
                run)).isEqualTo("rtf-bot-text");
        assertThat(sql.queryString("SELECT recording_url FROM workflow_runs WHERE id = ?", run)).endsWith(".wav");
        assertThat(await(voiceRuns.claim(org, workflow, run, NOW.plusSeconds(90))).refusal())
                .isEqualTo(VoiceRunStore.Refusal.COMPLETED);
    }

    @Test
    void concurrentReservationsNeverPassTheLimit() {
        long config = sql.telephonyConfiguration(org, "Sim");
        List<Uni<Optional<CallRecord>>> reservations = IntStream.range(0, 8).mapToObj(i -> {
            WorkflowRun run = new WorkflowRun(null, org, workflow, definition, "WR-" + i, "simulator", "outbound",
                    "initialized", false, null, null, null, null, Map.of(), null, null, null, null, NOW);
            CallRecord call = new CallRecord(CallAttempt.dialing(org, 0, NOW), run, Provider.SIMULATOR, config,
                    "+14155550100", "+1415555020" + i);
            return calls.reserve(org, 3, Duration.ofHours(2), run, call);
        }).toList();
        List<Optional<CallRecord>> results = await(Uni.join().all(reservations).andFailFast());
        assertThat(results.stream().filter(Optional::isPresent)).hasSize(3);
        assertThat(sql.queryLong("SELECT count(*) FROM calls WHERE organization_id = ?", org)).isEqualTo(3);
    }

    @Test
    void aCallReportAppliesOnlyFromTheStateItWasDecidedOnAndItsEventsGoWithIt() {
        subscribe("call.status");
        long config = sql.telephonyConfiguration(org, "Sim");
        WorkflowRun run = new WorkflowRun(null, org, workflow, definition, "WR-1", "simulator", "outbound",
                "initialized", false, null, null, null, null, Map.of(), null, null, null, null, NOW);
        CallRecord reserved = await(calls.reserve(org, 10, Duration.ofHours(2), run, new CallRecord(
                CallAttempt.dialing(org, 0, NOW), run, Provider.SIMULATOR, config, "+14155550100",
                "+14155550101"))).orElseThrow();
        CallRecord before = await(calls.findByRun(reserved.run().id())).orElseThrow();
        CallAttempt ringing = before.attempt().report(CallStatus.RINGING, NOW.plusSeconds(1), null).attempt();
        List<WebhookEvent> events = List.of(new WebhookEvent.CallStatusChanged(NOW, before.run().id(),
                before.attempt().id(), "ringing", "initiated", null, before.toNumber(), null));

        assertThat(await(calls.applyReport(before, ringing, before.run(), null, events))).isTrue();
        assertThat(deliveries("call.status")).isOne();
        // the same decision again (a duplicate that raced past the dedup check): the call moved on, nothing is written
        assertThat(await(calls.applyReport(before, ringing, before.run(), null, events))).isFalse();
        assertThat(deliveries("call.status")).isOne();
        assertThat(await(calls.findByRun(before.run().id())).orElseThrow().attempt().status())
                .isEqualTo(CallStatus.RINGING);
    }

    /**
     * The carrier's final report completes a run while its call's media session still holds it: the run.completed is
     * written with the report but held until the session has stored the recording and let go of the run; it is then
     * claimed with its run, and its body is the event with the run's links as of the attempt.
     */
    /** A simulator call's run, its call reserved and answered, its media claimed by a session at {@code claimedAt}. */
    private CallRecord answeredCallHeldSince(Instant claimedAt) {
        long config = sql.telephonyConfiguration(org, "Sim");
        WorkflowRun run = new WorkflowRun(null, org, workflow, definition, "WR-1", "simulator", "outbound",
                "initialized", false, null, null, null, null, Map.of(), null, null, null, null, NOW);
        CallRecord reserved = await(calls.reserve(org, 10, Duration.ofHours(2), run, new CallRecord(
                CallAttempt.dialing(org, 0, NOW), run, Provider.SIMULATOR, config, "+14155550100",
                "+14155550101"))).orElseThrow();
        long runId = reserved.run().id();
        assertThat(await(voiceRuns.claim(org, workflow, runId, claimedAt)).run()).isPresent(); // the session holds it
        CallRecord before = await(calls.findByRun(runId)).orElseThrow();
        CallAttempt answered = before.attempt().report(CallStatus.IN_PROGRESS, claimedAt, null).attempt();
        assertThat(await(calls.applyReport(before, answered, before.run(), null, List.of()))).isTrue();
        return await(calls.findByRun(runId)).orElseThrow();
    }

    /**
     * The carrier's final report comes while the session still holds the call's media (it is storing the recording):
     * the call is ended and the carrier's values merged, but the run stays open for the session, which completes it
     * with what the call gathered and announces it once; the delivery then goes out with the run's links added.
     */
    @Test
    void aReportLeavesARunItsSessionHoldsToTheSessionWhichCompletesAndAnnouncesIt() {
        subscribe("run.completed");
        Instant now = Instant.now();
        CallRecord before = answeredCallHeldSince(now);
        long runId = before.run().id();
        CallAttempt ended = before.attempt().report(CallStatus.COMPLETED, now, 12).attempt();
        WorkflowRun completed = CallOutcome.applyTo(before.run(), ended);
        assertThat(await(calls.applyReport(before, ended, completed, null,
                List.of(new WebhookEvent.RunCompleted(now, completed, List.of()))))).isTrue();

        assertThat(sql.queryString("SELECT status FROM calls WHERE workflow_run_id = ?", runId)).isEqualTo("completed");
        assertThat(sql.queryString("SELECT is_completed || ' ' || state || ' ' || (usage_info->>'call_duration_seconds')"
                + " FROM workflow_runs WHERE id = ?", runId)).as("open for the session, the carrier's duration merged")
                .isEqualTo("false running 12");
        assertThat(deliveries("run.completed")).as("announced by the session, not by the report").isZero();

        WorkflowRun stored = before.run().withGathered(Map.of("call_disposition", "order_placed",
                "mapped_call_disposition", "order_placed")).withArtifacts("recordings/" + org + "/runs/" + runId
                + ".wav", "transcripts/" + org + "/" + runId + ".txt", Map.of("call_duration_seconds", 11.5));
        assertThat(await(voiceRuns.finish(stored, List.of(), List.of(new WebhookEvent.RunCompleted(now, stored,
                List.of())), now))).as("completed by the session: announced once, by it").isTrue();
        assertThat(sql.queryString("SELECT is_completed || ' ' || state || ' ' || (gathered_context->>'call_disposition')"
                + " FROM workflow_runs WHERE id = ?", runId)).isEqualTo("true completed order_placed");
        assertThat(deliveries("run.completed")).isOne();

        Instant due = Instant.now().plusSeconds(1); // the delivery is due (written at the database's now)
        WebhookOutbox.Due claimed = await(outbox.claim("replica-a", due, Duration.ofMinutes(2), 50)).stream()
                .filter(d -> d.organizationId() == org).findFirst().orElseThrow();
        assertThat(claimed.eventType()).isEqualTo("run.completed");
        assertThat(claimed.workflowRunId()).isEqualTo(runId);
        assertThat(claimed.nodeId()).isNull();

        Map<String, Object> links = new LinkedHashMap<>();
        links.put("recording_url", "https://voice.example.com/api/v1/public/download/workflow/t1/recording");
        links.put("transcript_url", null);
        assertThat(await(outbox.bodyWith(claimed.deliveryId(), links)))
                .contains("\"type\": \"run.completed\"", "\"workflow_run_id\": " + runId,
                        "\"recording_url\": \"https://voice.example.com/api/v1/public/download/workflow/t1/recording\"",
                        "\"transcript_url\": null");
        assertThat(sql.queryString("SELECT payload::text FROM webhook_deliveries WHERE id = ?", claimed.deliveryId()))
                .as("what is stored stays as raised").doesNotContain("recording_url");
    }

    /**
     * A session whose heartbeat stopped (its replica died; the carrier did not reconnect the media elsewhere) holds
     * nothing: the carrier's final report completes the run and announces it, as for a call no session held.
     */
    @Test
    void aReportCompletesARunWhoseSessionWentQuiet() {
        subscribe("run.completed");
        Instant now = Instant.now();
        CallRecord before = answeredCallHeldSince(now.minus(VoiceRunStore.STALE).minusSeconds(5));
        CallAttempt ended = before.attempt().report(CallStatus.COMPLETED, now, 40).attempt();
        WorkflowRun completed = CallOutcome.applyTo(before.run(), ended);
        assertThat(await(calls.applyReport(before, ended, completed, null,
                List.of(new WebhookEvent.RunCompleted(now, completed, List.of()))))).isTrue();

        assertThat(sql.queryString("SELECT is_completed || ' ' || state FROM workflow_runs WHERE id = ?",
                before.run().id())).isEqualTo("true completed");
        assertThat(deliveries("run.completed")).isOne();
    }

    @Test
    void aClaimedDeliveryIsOneReplicasUntilItsLeaseExpiresAndOnlyItsHolderSettlesIt() {
        subscribe();
        Campaign running = runningCampaign();
        await(campaigns.applyTransition(running, running.pause(NOW, null)));
        Instant now = Instant.now();
        long mine = deliveries("campaign.paused") + deliveries("campaign.started");
        List<WebhookOutbox.Due> a = new ArrayList<>(await(outbox.claim("replica-a", now, Duration.ofMinutes(2), 50)));
        List<WebhookOutbox.Due> b = await(outbox.claim("replica-b", now, Duration.ofMinutes(2), 50));
        Set<Long> ours = new HashSet<>();
        a.stream().filter(d -> d.organizationId() == org).forEach(d -> ours.add(d.deliveryId()));
        assertThat(ours).hasSize((int) mine);
        assertThat(b).extracting(WebhookOutbox.Due::deliveryId).doesNotContainAnyElementsOf(ours);
        WebhookOutbox.Due due = a.stream().filter(d -> d.organizationId() == org).findFirst().orElseThrow();
        assertThat(due.secrets()).containsExactly("whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0");

        WebhookOutbox.AttemptRecord failed = new WebhookOutbox.AttemptRecord(due.attempt(), 503, null, 10, "busy", now);
        assertThat(await(outbox.settle(due.deliveryId(), "replica-b", failed, false, now.minusSeconds(1))))
                .as("not the holder").isFalse();
        assertThat(await(outbox.settle(due.deliveryId(), "replica-a", failed, false, now.minusSeconds(1)))).isTrue();
        // due again at once: another replica claims it, as its next attempt
        List<WebhookOutbox.Due> again = await(outbox.claim("replica-b", now, Duration.ofMinutes(2), 50));
        assertThat(again).filteredOn(d -> d.deliveryId() == due.deliveryId()).singleElement()
                .satisfies(d -> assertThat(d.attempt()).isEqualTo(due.attempt() + 1));
        assertThat(sql.queryLong("SELECT count(*) FROM webhook_attempts WHERE delivery_id = ?", due.deliveryId()))
                .isOne();
    }
}
