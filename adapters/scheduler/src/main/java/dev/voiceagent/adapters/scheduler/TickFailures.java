package dev.voiceagent.adapters.scheduler;

import dev.voiceagent.application.shared.DatabaseUnavailableException;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.jboss.logging.Logger;

/**
 * How a failed tick is logged: a tick that failed for its own reasons is a warning each time; a database out of reach
 * is warned about once a minute across every tick of the replica (the ticks keep trying every second or so, and the
 * outage is one event), the other failures of that minute at debug. The persistence adapter says that the database
 * is out of reach with a {@link DatabaseUnavailableException}, whatever port failed.
 */
final class TickFailures {

    static final long QUIET_MILLIS = 60_000;
    private static final AtomicLong WARNED_AT = new AtomicLong(Long.MIN_VALUE / 2);

    private TickFailures() {
    }

    /** Logs {@code what} failing with {@code failure}; true when it was logged as a warning. */
    static boolean log(Logger log, String what, Throwable failure) {
        Optional<DatabaseUnavailableException> outage = DatabaseUnavailableException.find(failure);
        if (outage.isEmpty()) {
            log.warnf("%s failed: %s", what, failure.toString());
            return true;
        }
        long now = System.currentTimeMillis();
        long last = WARNED_AT.get();
        if (now - last >= QUIET_MILLIS && WARNED_AT.compareAndSet(last, now)) {
            log.warnf("%s failed: the database is out of reach (%s); the ticks' further failures of this outage are"
                    + " logged at debug for %d s", what, outage.get().getCause(), QUIET_MILLIS / 1000);
            return true;
        }
        log.debugf("%s failed: %s", what, failure.toString());
        return false;
    }
}
