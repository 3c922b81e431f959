package dev.voiceagent.application.idempotency;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Runs a request at most once per Idempotency-Key and organization: the first successful response
 * is stored and replayed for 24 hours; the same key for a different request is refused (422), and
 * while the first request still runs a second one is a conflict (409). A failed request stores
 * nothing, so a retry after fixing its cause runs again. A claim left by a replica that died is
 * taken over after {@link #ABANDONED_AFTER}.
 */
@Singleton
public class IdempotentRequestsService implements RunIdempotentlyUseCase, PurgeIdempotencyKeysUseCase {

    public static final Duration KEPT_FOR = Duration.ofHours(24);
    static final Duration ABANDONED_AFTER = Duration.ofMinutes(5);
    static final int MAX_KEY_LENGTH = 255;

    private final IdempotencyRepository repository;
    private final Clock clock;

    public IdempotentRequestsService(IdempotencyRepository repository, Clock clock) {
        this.repository = repository;
        this.clock = clock;
    }

    /** Forgets the records past their 24 hours (a key reused later is new anyway; this keeps the table small). */
    @Override
    public Uni<Long> purgeExpired() {
        return repository.deleteCreatedBefore(clock.instant().minus(KEPT_FOR));
    }

    @Override
    public <T> Uni<T> run(long organizationId, String key, String fingerprint, Function<T, String> encode,
            Function<String, T> decode, Supplier<Uni<T>> action) {
        if (key == null) {
            return action.get();
        }
        if (key.isBlank() || key.length() > MAX_KEY_LENGTH || !key.chars().allMatch(c -> c >= 0x21 && c <= 0x7e)) {
            return Uni.createFrom().failure(new DomainRuleViolation(
                    "Idempotency-Key must be 1 to " + MAX_KEY_LENGTH + " printable ASCII characters without spaces"));
        }
        Instant now = clock.instant();
        return repository.claim(organizationId, key, fingerprint, now, now.minus(KEPT_FOR), now.minus(ABANDONED_AFTER))
                .map(found -> found.orElse(null)).chain(stored -> {
            if (stored == null) {
                return Uni.createFrom().<T>deferred(action::get)
                        .call(result -> repository.complete(organizationId, key, encode.apply(result)))
                        .onFailure().call(failure -> repository.release(organizationId, key)
                                .onFailure().recoverWithNull());
            }
            if (!stored.fingerprint().equals(fingerprint)) {
                return Uni.createFrom().failure(new IdempotencyKeyReusedException(
                        "This Idempotency-Key was already used for a different request"));
            }
            if (stored.response() == null) {
                return Uni.createFrom().failure(new ConflictException(
                        "A request with this Idempotency-Key is still in progress"));
            }
            return Uni.createFrom().item(decode.apply(stored.response()));
        });
    }
}
