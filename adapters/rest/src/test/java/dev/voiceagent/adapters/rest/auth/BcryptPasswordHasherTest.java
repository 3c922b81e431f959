package dev.voiceagent.adapters.rest.auth;

import static org.assertj.core.api.Assertions.assertThat;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.tuples.Tuple3;
import io.vertx.core.Context;
import io.vertx.mutiny.core.Vertx;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** bcrypt never holds up the event loop that asks for it, not even on its first use. */
class BcryptPasswordHasherTest {

    /** About a second a hash on these machines: a stall of the event loop by one could not go unseen. */
    private static final int COST = 14;
    private static final long TICK_MILLIS = 10;
    /** The longest the event loop's timer may be late; far below one hash, far above a busy machine's jitter. */
    private static final Duration MAX_STALL = Duration.ofMillis(500);

    private final Vertx vertx = Vertx.vertx();

    @AfterEach
    void close() {
        vertx.closeAndAwait();
    }

    @Test
    void aFirstSignUpAndLogInOnAnEventLoopLeaveItsTimersOnTime() throws Exception {
        Context loop = vertx.getDelegate().getOrCreateContext();
        AtomicLong lastTick = new AtomicLong();
        AtomicLong longestGap = new AtomicLong();
        CompletableFuture<Tuple3<String, Boolean, Boolean>> done = new CompletableFuture<>();
        List<String> threads = new ArrayList<>();
        loop.runOnContext(ignored -> {
            lastTick.set(System.nanoTime());
            long timer = vertx.setPeriodic(TICK_MILLIS, tick -> {
                long now = System.nanoTime();
                longestGap.accumulateAndGet(now - lastTick.getAndSet(now), Math::max);
            });
            // what the first sign-up and log-in do on their request's event loop: make the hasher, hash, check
            // (an unknown account's check is against the decoy hash), and a warm-up at start from the same loop
            BcryptPasswordHasher hasher = new BcryptPasswordHasher(vertx, COST);
            Uni.combine().all().unis(hasher.warmUp().replaceWith("warm"), hasher.hash("correct-horse-battery")
                            .invoke(() -> threads.add(Thread.currentThread().getName()))
                            .chain(hash -> hasher.matches("correct-horse-battery", hash)),
                    hasher.matches("correct-horse-battery", null)).asTuple()
                    .subscribe().with(results -> {
                        vertx.cancelTimer(timer);
                        done.complete(results);
                    }, done::completeExceptionally);
        });
        Tuple3<String, Boolean, Boolean> results = done.get(60, TimeUnit.SECONDS);
        assertThat(results.getItem2()).as("the password matches its hash").isTrue();
        assertThat(results.getItem3()).as("an unknown account's check never matches").isFalse();
        assertThat(threads).as("the result comes back on the caller's event loop").singleElement()
                .asString().startsWith("vert.x-eventloop-thread");
        assertThat(Duration.ofNanos(longestGap.get())).as("the event loop's timer was never held up by a hash")
                .isLessThan(MAX_STALL);
    }
}
