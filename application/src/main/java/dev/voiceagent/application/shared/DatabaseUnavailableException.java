package dev.voiceagent.application.shared;

import java.util.Optional;

/**
 * The database is out of reach (a connection refused, reset, closed, or not to be had from the pool; the server
 * shutting down, starting up or terminating its sessions): a failure of the moment, not of the request or the work,
 * which the same call may outlive. The persistence adapter raises it from any out-port, so that the callers need not
 * know its driver's failures: the REST adapter answers it 503 with Retry-After, the scheduler's ticks report it as
 * one outage rather than as each tick's own fault.
 */
public class DatabaseUnavailableException extends RuntimeException {

    public DatabaseUnavailableException(Throwable cause) {
        super("The database is out of reach: " + cause, cause);
    }

    /** This exception in {@code failure}: the failure itself, or its cause (a composite or wrapping failure). */
    public static Optional<DatabaseUnavailableException> find(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DatabaseUnavailableException outage) {
                return Optional.of(outage);
            }
        }
        return Optional.empty();
    }
}
