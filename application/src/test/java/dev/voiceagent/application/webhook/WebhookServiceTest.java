package dev.voiceagent.application.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.webhook.WebhookOutbox.AttemptRecord;
import dev.voiceagent.application.webhook.WebhookOutbox.Due;
import dev.voiceagent.application.webhook.WebhookSender.Result;
import io.smallrye.mutiny.Uni;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
                throw new AssertionError("only a run.completed is sent with its run's links");
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
            return Uni.createFrom().item(answers.get(url));
        };
        return new WebhookService(null, outbox, sender, null, null, null, null, Clock.fixed(NOW, ZoneOffset.UTC),
                new SecureRandom(), () -> 0L, "replica-a");
    }

    private void due(long id, String url, int attempt) {
        due.add(new Due(id, 1, url, "msg_" + id, "campaign.started", "{}", attempt, List.of("whsec_new", "whsec_old"),
                null, null));
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

    @Test
    void nothingDueCostsNothing() {
        assertThat(service().deliverDue().await().indefinitely()).isZero();
        assertThat(settled).isEmpty();
    }
}
