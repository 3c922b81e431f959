package dev.voiceagent.adapters.postgres.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.shared.DatabaseUnavailableException;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.VertxException;
import io.vertx.pgclient.PgException;
import io.vertx.sqlclient.ClosedConnectionException;
import jakarta.interceptor.InvocationContext;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.ConnectException;
import java.net.SocketException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import org.hibernate.exception.JDBCConnectionException;
import org.junit.jupiter.api.Test;

/** Which failures are the database out of reach, and how they reach the port's caller. */
class DatabaseAccessInterceptorTest {

    private final DatabaseAccessInterceptor interceptor = new DatabaseAccessInterceptor();

    @Test
    void connectionsRefusedClosedOrNotToBeHadAreTheDatabaseOutOfReach() {
        assertThat(DatabaseAccessInterceptor.unreachable(new ConnectException("Connection refused"))).isTrue();
        assertThat(DatabaseAccessInterceptor.unreachable(ClosedConnectionException.INSTANCE)).isTrue();
        assertThat(DatabaseAccessInterceptor.unreachable(new VertxException("Connection was closed"))).isTrue();
        assertThat(DatabaseAccessInterceptor.unreachable(new CompletionException(new IllegalStateException(
                "Failed to create connection", new ConnectException("refused"))))).as("wrappings looked through")
                .isTrue();
        assertThat(DatabaseAccessInterceptor.unreachable(new IllegalStateException("Pending connection queue full")))
                .isTrue();
    }

    @Test
    void aServerGoingDownStartingUpOrTerminatingItsBackendsIsTheDatabaseOutOfReach() {
        // what the reactive client raises with the server's own error (severity FATAL, the SQLSTATE)
        assertThat(DatabaseAccessInterceptor.unreachable(fatal("the database system is shutting down", "57P03")))
                .as("a connection asked for while the server shuts down").isTrue();
        assertThat(DatabaseAccessInterceptor.unreachable(fatal("the database system is starting up", "57P03")))
                .as("... or while it starts again").isTrue();
        assertThat(DatabaseAccessInterceptor.unreachable(fatal("terminating connection due to administrator command",
                "57P01"))).as("a backend terminated by a fast shutdown or pg_terminate_backend").isTrue();
        assertThat(DatabaseAccessInterceptor.unreachable(fatal("terminating connection because of crash of another"
                + " server process", "57P02"))).isTrue();
        assertThat(DatabaseAccessInterceptor.unreachable(fatal("sorry, too many clients already", "53300"))).isTrue();
        assertThat(DatabaseAccessInterceptor.unreachable(fatal("connection failure", "08006"))).isTrue();
        assertThat(DatabaseAccessInterceptor.unreachable(new CompletionException(fatal(
                "the database system is shutting down", "57P03")))).as("wrappings looked through").isTrue();
        // Hibernate Reactive keeps the state in an SQLException of its own (without the client's exception)
        assertThat(DatabaseAccessInterceptor.unreachable(new JDBCConnectionException("error executing SQL statement",
                new SQLException("FATAL: the database system is shutting down (57P03)", "57P03")))).isTrue();
    }

    @Test
    void aConnectionResetUnderTheClientIsTheDatabaseOutOfReach() {
        assertThat(DatabaseAccessInterceptor.unreachable(new SocketException("Connection reset"))).isTrue();
        assertThat(DatabaseAccessInterceptor.unreachable(new IOException(
                "recvAddress(..) failed: Connection reset by peer"))).as("Netty's native transport").isTrue();
        assertThat(DatabaseAccessInterceptor.unreachable(new IllegalStateException("statement failed",
                new IOException("writev(..) failed: Broken pipe")))).isTrue();
    }

    @Test
    void aStatementsOwnFailureIsNot() {
        assertThat(DatabaseAccessInterceptor.unreachable(new VertxException(
                "duplicate key value violates unique constraint \"users_email_key\""))).isFalse();
        assertThat(DatabaseAccessInterceptor.unreachable(new IllegalArgumentException("no such column"))).isFalse();
        assertThat(DatabaseAccessInterceptor.unreachable(error("duplicate key value violates unique constraint",
                "23505"))).isFalse();
        assertThat(DatabaseAccessInterceptor.unreachable(error("could not serialize access", "40001"))).isFalse();
        assertThat(DatabaseAccessInterceptor.unreachable(error("canceling statement due to statement timeout",
                "57014"))).isFalse();
        assertThat(DatabaseAccessInterceptor.unreachable(error("invalid message format", "08P01")))
                .as("a protocol violation is the client's fault").isFalse();
        assertThat(DatabaseAccessInterceptor.unreachable(new JDBCConnectionException("error executing SQL statement",
                new SQLException("relation \"nope\" does not exist", "42P01")))).isFalse();
        assertThat(DatabaseAccessInterceptor.unreachable(new IOException("No space left on device"))).isFalse();
        assertThat(DatabaseAccessInterceptor.unreachable(new DatabaseUnavailableException(
                new ConnectException("Connection refused")))).as("translated once only").isFalse();
    }

    @Test
    void aUniOrMultiFailingForTheDatabaseFailsWithTheApplicationsException() throws Exception {
        ConnectException refused = new ConnectException("Connection refused: localhost/127.0.0.1:5432");
        Uni<?> uni = (Uni<?>) interceptor.translate(invocation(() -> Uni.createFrom().failure(refused)));
        assertThatThrownBy(() -> uni.await().atMost(Duration.ofSeconds(1)))
                .isInstanceOf(DatabaseUnavailableException.class).hasCause(refused);
        Multi<?> multi = (Multi<?>) interceptor.translate(invocation(() -> Multi.createFrom().failure(refused)));
        assertThatThrownBy(() -> multi.collect().asList().await().atMost(Duration.ofSeconds(1)))
                .isInstanceOf(DatabaseUnavailableException.class).hasCause(refused);
        assertThatThrownBy(() -> interceptor.translate(invocation(() -> {
            throw new IllegalStateException("Connection is not active now");
        }))).isInstanceOf(DatabaseUnavailableException.class);
    }

    @Test
    void aUniFailingWhileTheServerShutsDownFailsWithTheApplicationsException() throws Exception {
        PgException shuttingDown = fatal("the database system is shutting down", "57P03");
        Uni<?> uni = (Uni<?>) interceptor.translate(invocation(() -> Uni.createFrom().failure(shuttingDown)));
        assertThatThrownBy(() -> uni.await().atMost(Duration.ofSeconds(1)))
                .isInstanceOf(DatabaseUnavailableException.class).hasCause(shuttingDown);
    }

    @Test
    void everyOtherResultOrFailurePassesUnchanged() throws Exception {
        IllegalStateException own = new IllegalStateException("a contact without a phone number");
        Uni<?> failing = (Uni<?>) interceptor.translate(invocation(() -> Uni.createFrom().failure(own)));
        assertThatThrownBy(() -> failing.await().atMost(Duration.ofSeconds(1))).isSameAs(own);
        Uni<?> ok = (Uni<?>) interceptor.translate(invocation(() -> Uni.createFrom().item(42)));
        assertThat(ok.await().atMost(Duration.ofSeconds(1))).isEqualTo(42);
        assertThat(interceptor.translate(invocation(() -> "plain"))).isEqualTo("plain");
    }

    /** A server error as the reactive client raises it (its message "FATAL: ... (57P03)"). */
    private static PgException fatal(String message, String sqlState) {
        return new PgException(message, "FATAL", sqlState, null);
    }

    private static PgException error(String message, String sqlState) {
        return new PgException(message, "ERROR", sqlState, null);
    }

    private static InvocationContext invocation(Callable<Object> method) {
        return new InvocationContext() {
            @Override
            public Object proceed() throws Exception {
                return method.call();
            }

            @Override
            public Object getTarget() {
                return null;
            }

            @Override
            public Object getTimer() {
                return null;
            }

            @Override
            public Method getMethod() {
                return null;
            }

            @Override
            public Constructor<?> getConstructor() {
                return null;
            }

            @Override
            public Object[] getParameters() {
                return new Object[0];
            }

            @Override
            public void setParameters(Object[] params) {
            }

            @Override
            public Map<String, Object> getContextData() {
                return Map.of();
            }
        };
    }
}
