package dev.voiceagent.application.idempotency;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.support.MutableClock;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class IdempotentRequestsServiceTest {

    /** The claim rules of the Postgres adapter, in memory: free, expired or abandoned keys are taken. */
    static final class InMemory implements IdempotencyRepository {
        record Entry(String fingerprint, String response, Instant createdAt) {
        }

        final Map<String, Entry> entries = new HashMap<>();

        @Override
        public Uni<Optional<Stored>> claim(long org, String key, String fingerprint, Instant now, Instant expiredBefore,
                Instant abandonedBefore) {
            Entry e = entries.get(org + ":" + key);
            if (e == null || e.createdAt().isBefore(expiredBefore)
                    || (e.response() == null && e.createdAt().isBefore(abandonedBefore))) {
                entries.put(org + ":" + key, new Entry(fingerprint, null, now));
                return Uni.createFrom().item(Optional.empty());
            }
            return Uni.createFrom().item(Optional.of(new Stored(e.fingerprint(), e.response())));
        }

        @Override
        public Uni<Void> complete(long org, String key, String response) {
            entries.computeIfPresent(org + ":" + key, (k, e) -> new Entry(e.fingerprint(), response, e.createdAt()));
            return Uni.createFrom().voidItem();
        }

        @Override
        public Uni<Long> deleteCreatedBefore(Instant before) {
            long n = entries.values().stream().filter(e -> e.createdAt().isBefore(before)).count();
            entries.values().removeIf(e -> e.createdAt().isBefore(before));
            return Uni.createFrom().item(n);
        }

        @Override
        public Uni<Void> release(long org, String key) {
            entries.remove(org + ":" + key);
            return Uni.createFrom().voidItem();
        }
    }

    private final InMemory repository = new InMemory();
    private final MutableClock clock = new MutableClock(Instant.parse("2026-11-21T10:00:00Z"));
    private final IdempotentRequestsService requests = new IdempotentRequestsService(repository, clock);
    private final AtomicInteger runs = new AtomicInteger();

    private String run(long org, String key, String fingerprint) {
        return requests.run(org, key, fingerprint, Function.identity(), Function.identity(),
                () -> Uni.createFrom().item("result " + runs.incrementAndGet())).await().indefinitely();
    }

    @Test
    void theFirstResponseIsReplayedForTheSameRequestFor24Hours() {
        assertThat(run(1, "k1", "create:abc")).isEqualTo("result 1");
        assertThat(run(1, "k1", "create:abc")).isEqualTo("result 1");
        clock.advance(Duration.ofHours(23));
        assertThat(run(1, "k1", "create:abc")).isEqualTo("result 1");
        clock.advance(Duration.ofHours(2));
        assertThat(run(1, "k1", "create:abc")).as("expired: runs again").isEqualTo("result 2");
        assertThat(run(2, "k1", "create:abc")).as("keys belong to one organization").isEqualTo("result 3");
        assertThat(run(1, null, "create:abc")).as("no key: no idempotency").isEqualTo("result 4");
        clock.advance(Duration.ofHours(25));
        assertThat(requests.purgeExpired().await().indefinitely()).isEqualTo(2);
        assertThat(repository.entries).isEmpty();
    }

    @Test
    void aKeyReusedForAnotherRequestIsRefusedAndAKeyInUseIsAConflict() {
        run(1, "k2", "create:abc");
        assertThatThrownBy(() -> run(1, "k2", "create:def")).isInstanceOf(IdempotencyKeyReusedException.class);
        repository.entries.put("1:k3", new InMemory.Entry("start:7", null, clock.instant()));
        assertThatThrownBy(() -> run(1, "k3", "start:7")).isInstanceOf(ConflictException.class)
                .hasMessageContaining("still in progress");
        clock.advance(Duration.ofMinutes(6));
        assertThat(run(1, "k3", "start:7")).as("abandoned by a dead replica: taken over").isEqualTo("result 2");
        assertThatThrownBy(() -> run(1, "has space", "x")).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> run(1, "k".repeat(256), "x")).isInstanceOf(DomainRuleViolation.class);
    }

    @Test
    void aFailedRequestStoresNothingSoARetryRunsAgain() {
        assertThatThrownBy(() -> requests.run(1, "k4", "f", Function.identity(), Function.identity(),
                () -> Uni.createFrom().<String>failure(new DomainRuleViolation("not ready"))).await().indefinitely())
                .isInstanceOf(DomainRuleViolation.class);
        assertThat(repository.entries).doesNotContainKey("1:k4");
        assertThat(run(1, "k4", "f")).isEqualTo("result 1");
    }
}
