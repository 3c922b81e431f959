package dev.voiceagent.adapters.postgres.shared;

import dev.voiceagent.application.shared.DatabaseUnavailableException;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.VertxException;
import io.vertx.sqlclient.ClosedConnectionException;
import io.vertx.sqlclient.DatabaseException;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.nio.channels.ClosedChannelException;
import java.sql.SQLException;
import java.util.Set;

/**
 * Turns the database being out of reach (down, going down or starting up) into the application's
 * {@link DatabaseUnavailableException}, for every method of a {@link DatabaseAccess} bean: a Uni's or a Multi's
 * failure, or a failure thrown at once. It runs outside Hibernate Reactive's session and transaction interceptors, so
 * a session that cannot be opened counts too. Every other failure passes unchanged.
 */
@DatabaseAccess
@Interceptor
@Priority(Interceptor.Priority.PLATFORM_BEFORE)
public class DatabaseAccessInterceptor {

    @AroundInvoke
    Object translate(InvocationContext invocation) throws Exception {
        Object result;
        try {
            result = invocation.proceed();
        } catch (RuntimeException e) {
            throw unreachable(e) ? new DatabaseUnavailableException(e) : e;
        }
        if (result instanceof Uni<?> uni) {
            return uni.onFailure(DatabaseAccessInterceptor::unreachable).transform(DatabaseUnavailableException::new);
        }
        if (result instanceof Multi<?> multi) {
            return multi.onFailure(DatabaseAccessInterceptor::unreachable).transform(DatabaseUnavailableException::new);
        }
        return result;
    }

    /**
     * The SQLSTATEs of a server that is going down, starting up or refusing connections: 57P01 admin_shutdown (a
     * backend terminated, as by a fast shutdown or pg_terminate_backend), 57P02 crash_shutdown, 57P03
     * cannot_connect_now ("the database system is shutting down", "... is starting up"), 57P05 idle_session_timeout
     * and 53300 too_many_connections. Class 08 (connection exceptions) counts too, but for 08P01 protocol_violation,
     * which is a fault of the client that retrying does not mend.
     */
    private static final Set<String> OUT_OF_REACH_STATES = Set.of("57P01", "57P02", "57P03", "57P05", "53300");

    /**
     * Whether {@code failure} is the database out of reach rather than a fault of the statement: a connection refused,
     * reset, closed, or not to be had from the pool, or the server's own word that it is going down or cannot take a
     * connection now ({@link #OUT_OF_REACH_STATES}, class 08), the reactive client's and Hibernate Reactive's wrappings
     * looked through (Hibernate Reactive hands the state on in a {@link SQLException} of its own). A failure already
     * translated is not translated again.
     */
    static boolean unreachable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DatabaseUnavailableException) {
                return false;
            }
            String message = String.valueOf(t.getMessage());
            if (t instanceof ConnectException || t instanceof ClosedConnectionException
                    || t instanceof SocketException || t instanceof ClosedChannelException
                    || t instanceof IOException && (message.contains("Connection reset")
                            || message.contains("Broken pipe"))
                    || t.getClass() == VertxException.class && message.contains("closed")
                    || message.contains("Connection refused") || message.contains("Connection is not active")
                    || message.contains("Failed to create connection") || message.contains("Pending connection")) {
                return true;
            }
            String state = t instanceof DatabaseException database ? database.getSqlState()
                    : t instanceof SQLException sql ? sql.getSQLState() : null;
            if (state != null && outOfReach(state)) {
                return true;
            }
        }
        return false;
    }

    private static boolean outOfReach(String sqlState) {
        return OUT_OF_REACH_STATES.contains(sqlState) || sqlState.startsWith("08") && !sqlState.equals("08P01");
    }
}
