package dev.voiceagent.adapters.scheduler;

import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * How a failed tick is logged: a tick that failed for its own reasons is a warning each time; a database out of reach
 * is warned about once a minute across every tick of the replica (the ticks keep trying every second or so, and the
 * outage is one event), the other failures of that minute at debug. (The outage is recognised as the REST error
 * mapper recognises it; adapters do not share code.)
 */
final class TickFailures {

    static final long QUIET_MILLIS = 60_000;
    private static final AtomicLong WARNED_AT = new AtomicLong(Long.MIN_VALUE / 2);

    private TickFailures() {
    }

    /** Logs {@code what} failing with {@code failure}; true when it was logged as a warning. */
    static boolean log(Logger log, String what, Throwable failure) {
        if (!databaseUnavailable(failure)) {
            log.warnf("%s failed: %s", what, failure.toString());
            return true;
        }
        long now = System.currentTimeMillis();
        long last = WARNED_AT.get();
        if (now - last >= QUIET_MILLIS && WARNED_AT.compareAndSet(last, now)) {
            log.warnf("%s failed: the database is out of reach (%s); the ticks' further failures of this outage are"
                    + " logged at debug for %d s", what, failure.toString(), QUIET_MILLIS / 1000);
            return true;
        }
        log.debugf("%s failed: %s", what, failure.toString());
        return false;
    }

    /** A connection refused, closed, or not to be had from the pool: the driver's wrappings looked through. */
    static boolean databaseUnavailable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            String type = t.getClass().getName();
            String message = String.valueOf(t.getMessage());
            if (t instanceof java.net.ConnectException || type.equals("io.vertx.sqlclient.ClosedConnectionException")
                    || type.equals("io.vertx.core.VertxException") && message.contains("closed")
                    || message.contains("Connection refused") || message.contains("Connection is not active")
                    || message.contains("Failed to create connection") || message.contains("Pending connection")) {
                return true;
            }
        }
        return false;
    }
}
