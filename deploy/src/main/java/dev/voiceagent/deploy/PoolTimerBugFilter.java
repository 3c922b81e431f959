package dev.voiceagent.deploy;

import io.quarkus.runtime.StartupEvent;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * Keeps a known Vert.x SQL client bug out of the logs: when the database cannot be reached, each query that failed to
 * get a connection leaves its pool-timeout timer running, and when it fires the pool fails the query's promise a
 * second time: an uncaught {@code IllegalStateException: Result is already complete} from
 * {@code SqlConnectionPool.lambda$execute} (https://github.com/eclipse-vertx/vertx-sql-client/issues/1706, open in
 * 4.5.34; this service's use of the pool is not the cause: the query itself had already failed, and was answered with
 * a 503). Those are counted and logged at debug; every other uncaught exception goes to the handler that was there.
 */
@ApplicationScoped
public class PoolTimerBugFilter {

    private static final Logger LOG = Logger.getLogger(PoolTimerBugFilter.class);

    private final AtomicLong suppressed = new AtomicLong();

    void install(@Observes StartupEvent event, Vertx vertx) {
        Handler<Throwable> previous = vertx.exceptionHandler();
        vertx.exceptionHandler(failure -> {
            if (isPoolTimerBug(failure)) {
                suppressed.incrementAndGet();
                LOG.debugf("the SQL pool failed an already failed query again (vertx-sql-client #1706): %s", failure);
            } else if (previous != null) {
                previous.handle(failure);
            } else {
                LOG.error("Unhandled exception on a Vert.x context", failure);
            }
        });
    }

    /** How many of the pool's second failures were kept out of the logs. */
    public long suppressed() {
        return suppressed.get();
    }

    static boolean isPoolTimerBug(Throwable failure) {
        if (!(failure instanceof IllegalStateException) || !"Result is already complete".equals(failure.getMessage())) {
            return false;
        }
        for (StackTraceElement frame : failure.getStackTrace()) {
            if (frame.getClassName().startsWith("io.vertx.sqlclient.impl.pool.SqlConnectionPool")) {
                return true;
            }
        }
        return false;
    }
}
