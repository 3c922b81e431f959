package dev.voiceagent.adapters.scheduler;

import dev.voiceagent.application.shared.DatabaseOutages;
import org.jboss.logging.Logger;

/**
 * How a failed tick is logged: a tick that failed for its own reasons is a warning each time; a database out of reach
 * is warned about once a minute across every tick of the replica (the ticks keep trying every second or so, and the
 * outage is one event), the other failures of that minute at debug.
 */
final class TickFailures {

    static final DatabaseOutages.Gate OUTAGE = new DatabaseOutages.Gate(60_000);

    private TickFailures() {
    }

    /** Logs {@code what} failing with {@code failure}; true when it was logged as a warning. */
    static boolean log(Logger log, String what, Throwable failure) {
        if (!DatabaseOutages.unavailable(failure)) {
            log.warnf("%s failed: %s", what, failure.toString());
            return true;
        }
        if (OUTAGE.open(System.currentTimeMillis())) {
            log.warnf("%s failed: the database is out of reach (%s); the ticks' further failures of this outage are"
                    + " logged at debug for %d s", what, failure.toString(), OUTAGE.quietMillis() / 1000);
            return true;
        }
        log.debugf("%s failed: %s", what, failure.toString());
        return false;
    }
}
