package dev.voiceagent.deploy.observability;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.PoolTimerBugFilter;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The SQL pool's second failure of an already failed query (vertx-sql-client #1706, thrown from its timeout timer
 * while the database is out) is kept out of the logs; any other uncaught exception still reaches the handler that was
 * there before.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class PoolTimerBugFilterTest {

    @Inject
    Vertx vertx;

    @Inject
    PoolTimerBugFilter filter;

    /** The exception as the pool's timer throws it: its message, and a frame of SqlConnectionPool's lambda. */
    private static IllegalStateException poolTimerFailure() {
        IllegalStateException e = new IllegalStateException("Result is already complete");
        e.setStackTrace(new StackTraceElement[] {
                new StackTraceElement("io.vertx.core.Promise", "fail", "Promise.java", 90),
                new StackTraceElement("io.vertx.sqlclient.impl.pool.SqlConnectionPool", "lambda$execute$3",
                        "SqlConnectionPool.java", 216),
                new StackTraceElement("io.vertx.core.impl.VertxImpl$InternalTimerHandler", "handle", "VertxImpl.java",
                        1010)});
        return e;
    }

    private void thrownOnAContext(RuntimeException failure) throws Exception {
        CompletableFuture<Void> ran = new CompletableFuture<>();
        vertx.runOnContext(v -> {
            ran.complete(null);
            throw failure;
        });
        ran.get(5, TimeUnit.SECONDS);
        Thread.sleep(100);
    }

    @Test
    void thePoolsSecondFailureIsCountedNotLoggedAndOtherUncaughtExceptionsAreNot() throws Exception {
        assertThat(vertx.exceptionHandler()).as("installed at start").isNotNull();
        long before = filter.suppressed();
        thrownOnAContext(poolTimerFailure());
        assertThat(filter.suppressed()).isEqualTo(before + 1);

        // the same message from anywhere else, or another failure of the pool's, is not the bug: it is not swallowed
        thrownOnAContext(new IllegalStateException("Result is already complete"));
        IllegalStateException other = new IllegalStateException("Pool closed");
        other.setStackTrace(poolTimerFailure().getStackTrace());
        thrownOnAContext(other);
        assertThat(filter.suppressed()).isEqualTo(before + 1);
    }
}
