package dev.voiceagent.adapters.postgres.shared;

import dev.voiceagent.application.shared.DatabaseUnavailableException;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.VertxException;
import io.vertx.sqlclient.ClosedConnectionException;
import jakarta.annotation.Priority;
import jakarta.interceptor.AroundInvoke;
import jakarta.interceptor.Interceptor;
import jakarta.interceptor.InvocationContext;
import java.net.ConnectException;

/**
 * Turns the database being out of reach into the application's {@link DatabaseUnavailableException}, for every
 * method of a {@link DatabaseAccess} bean: a Uni's or a Multi's failure, or a failure thrown at once. It runs outside
 * Hibernate Reactive's session and transaction interceptors, so a session that cannot be opened counts too. Every
 * other failure passes unchanged.
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
     * Whether {@code failure} is the database out of reach rather than a fault of the statement: a connection refused,
     * closed, or not to be had from the pool, the reactive client's and Hibernate Reactive's wrappings looked
     * through. A failure already translated is not translated again.
     */
    static boolean unreachable(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof DatabaseUnavailableException) {
                return false;
            }
            String message = String.valueOf(t.getMessage());
            if (t instanceof ConnectException || t instanceof ClosedConnectionException
                    || t.getClass() == VertxException.class && message.contains("closed")
                    || message.contains("Connection refused") || message.contains("Connection is not active")
                    || message.contains("Failed to create connection") || message.contains("Pending connection")) {
                return true;
            }
        }
        return false;
    }
}
