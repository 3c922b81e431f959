package dev.voiceagent.application.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.webhook.WebhookOutbox.AttemptRecord;
import dev.voiceagent.application.webhook.WebhookOutbox.Due;
import dev.voiceagent.application.webhook.WebhookSender.Result;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import dev.voiceagent.domain.workflow.RunArtifact;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.lang.reflect.Proxy;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Webhook delivery without Quarkus, a database or a network: the outbox hands out due deliveries, a scripted sender
 * answers, and each delivery is settled as delivered, retried on the schedule (honouring Retry-After), or dead
 * (refused by the address guard, or answered with a final error); a delivery whose settling fails does not stop the
 * others.
 */
class WebhookServiceTest {

    private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

    private record Settled(long deliveryId, AttemptRecord attempt, boolean delivered, Instant next) {
    }

    private final List<Due> due = new ArrayList<>();
    private final Map<String, Result> answers = new HashMap<>();
    private final List<String> signedWith = new ArrayList<>();
    private final List<Settled> settled = new ArrayList<>();
    private Long failSettling;
    private final Map<Long, Long> completedRuns = new HashMap<>();
    private final Map<Long, WorkflowRun> stored = new HashMap<>();
    private final Map<Long, Map<String, Object>> mergedInto = new HashMap<>();
    private final Map<String, String> sentBodies = new HashMap<>();

    private WebhookService service() {
        WebhookOutbox outbox = new WebhookOutbox() {
            @Override
            public Uni<List<Due>> claim(String owner, Instant now, Duration lease, int limit) {
                assertThat(owner).isEqualTo("replica-a");
                List<Due> batch = List.copyOf(due.subList(0, Math.min(limit, due.size())));
                due.removeAll(batch);
                return Uni.createFrom().item(batch);
            }

            @Override
            public Uni<String> bodyWith(long deliveryId, Map<String, Object> data) {
                assertThat(completedRuns).as("only a run.completed is sent with its run as of now")
                        .containsKey(deliveryId);
                mergedInto.put(deliveryId, data);
                return Uni.createFrom().item("{\"merged\": " + deliveryId + "}");
            }

            @Override
            public Uni<Boolean> settle(long deliveryId, String owner, AttemptRecord attempt, boolean delivered,
                    Instant next) {
                if (failSettling != null && failSettling == deliveryId) {
                    return Uni.createFrom().failure(new IllegalStateException("connection lost"));
                }
                settled.add(new Settled(deliveryId, attempt, delivered, next));
                return Uni.createFrom().item(true);
            }
        };
        WebhookSender sender = (url, messageId, timestamp, body, secrets) -> {
            assertThat(timestamp).isEqualTo(NOW.getEpochSecond());
            signedWith.addAll(secrets);
            sentBodies.put(url, body);
            return Uni.createFrom().item(answers.get(url));
        };
        // the runs as stored now, by id (only findById is read when a run.completed goes out)
        WorkflowRunRepository runs = (WorkflowRunRepository) Proxy.newProxyInstance(getClass().getClassLoader(),
                new Class<?>[] {WorkflowRunRepository.class}, (proxy, method, args) -> {
                    assertThat(method.getName()).isEqualTo("findById");
                    return Uni.createFrom().item(Optional.ofNullable(stored.get((Long) args[0])));
                });
        RunLinks links = new RunLinks(run -> run.recordingUrl() == null ? Map.of()
                : Map.of(RunArtifact.RECORDING, "t-" + run.id()), "https://voice.example.com/");
        return new WebhookService(null, outbox, sender, null, null, runs, links, Clock.fixed(NOW, ZoneOffset.UTC),
                new SecureRandom(), () -> 0L, "replica-a");
    }

    private void due(long id, String url, int attempt) {
        due.add(new Due(id, 1, url, "msg_" + id, "campaign.started", "{}", attempt, List.of("whsec_new", "whsec_old"),
                null, null));
    }

    /** A run.completed raised when {@code runId} was completed, its data as the event was raised. */
    private void completedRunDue(long id, String url, long runId) {
        completedRuns.put(id, runId);
        due.add(new Due(id, 1, url, "msg_" + id, "run.completed", "{\"data\": {\"disposition\": null}}", 1,
                List.of("whsec_new"), runId, null));
    }

    private Settled settled(long id) {
        return settled.stream().filter(s -> s.deliveryId() == id).findFirst().orElseThrow();
    }

    @Test
    void eachDueDeliveryIsSentSignedWithEverySecretAndSettledByItsAnswer() {
        due(1, "https://ok.example", 1);
        due(2, "https://down.example", 1);
        due(3, "https://gone.example", 1);
        due(4, "https://private.example", 1);
        answers.put("https://ok.example", Result.answered(204, 12, "", null));
        answers.put("https://down.example", Result.answered(503, 40, "maintenance", "120"));
        answers.put("https://gone.example", Result.answered(410, 5, "gone", null));
        answers.put("https://private.example", Result.unanswered(true, "address refused: private", 0));

        assertThat(service().deliverDue().await().indefinitely()).isEqualTo(4);

        assertThat(signedWith).containsOnly("whsec_new", "whsec_old");
        assertThat(settled(1).delivered()).isTrue();
        assertThat(settled(1).next()).as("final").isNull();
        assertThat(settled(1).attempt().status()).isEqualTo(204);
        assertThat(settled(2).delivered()).isFalse();
        assertThat(settled(2).next()).as("retried, no sooner than the answer's Retry-After")
                .isEqualTo(NOW.plusSeconds(120));
        assertThat(settled(2).attempt().responseExcerpt()).isEqualTo("maintenance");
        assertThat(settled(3).next()).as("a final error is not retried").isNull();
        assertThat(settled(4).delivered()).isFalse();
        assertThat(settled(4).next()).as("a refused address is never retried").isNull();
        assertThat(settled(4).attempt().error()).contains("address refused");
    }

    @Test
    void aDeliveryPastTheLastRetryIsDeadAndOneThatCannotBeSettledDoesNotStopTheOthers() {
        due(1, "https://down.example", 99);
        due(2, "https://ok.example", 1);
        due(3, "https://ok.example", 1);
        answers.put("https://down.example", Result.answered(500, 3, "boom", null));
        answers.put("https://ok.example", Result.answered(200, 3, "ok", null));
        failSettling = 2L;
        assertThat(service().deliverDue().await().indefinitely()).isEqualTo(3);
        assertThat(settled(1).next()).as("no retry left").isNull();
        assertThat(settled(1).delivered()).isFalse();
        assertThat(settled).extracting(Settled::deliveryId).containsExactlyInAnyOrder(1L, 3L);
    }

    /**
     * A carrier's final report completed the call's run while its media session was still finishing: the event raised
     * then had no disposition and nothing gathered. Its delivery (held by the outbox until the session finished) sends
     * the run as it is stored now: the session's disposition, what it gathered, the call's duration and the links.
     */
    @Test
    void aRunCompletedGoesOutWithTheRunAsItIsStoredWhenDelivered() {
        WorkflowRun finished = new WorkflowRun(77L, 1, 5, 6, "WR-TEL-OUT-77", "twilio", "outbound", "completed", true,
                "recordings/1/runs/77.wav", null, Map.of("call_duration_seconds", 42),
                null, null, Map.of("call_disposition", "order_placed", "mapped_call_disposition", "order_placed",
                        "order_number", "A-1042"), null, null, null, NOW);
        stored.put(77L, finished);
        completedRunDue(9, "https://crm.example", 77);
        answers.put("https://crm.example", Result.answered(200, 4, "ok", null));

        assertThat(service().deliverDue().await().indefinitely()).isEqualTo(1);

        assertThat(mergedInto.get(9L)).containsEntry("workflow_run_id", 77L).containsEntry("disposition", "order_placed")
                .containsEntry("duration_seconds", 42.0)
                .containsEntry("gathered_context", finished.gatheredContext())
                .containsEntry("recording_url", "https://voice.example.com/api/v1/public/download/workflow/t-77/recording")
                .containsEntry("transcript_url", null);
        assertThat(sentBodies.get("https://crm.example")).isEqualTo("{\"merged\": 9}");
        assertThat(settled(9).delivered()).isTrue();
    }

    @Test
    void nothingDueCostsNothing() {
        assertThat(service().deliverDue().await().indefinitely()).isZero();
        assertThat(settled).isEmpty();
    }
}
