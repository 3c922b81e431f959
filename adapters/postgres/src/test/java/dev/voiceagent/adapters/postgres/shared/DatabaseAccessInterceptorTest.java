package dev.voiceagent.adapters.postgres.shared;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.shared.DatabaseUnavailableException;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import io.vertx.core.VertxException;
import io.vertx.sqlclient.ClosedConnectionException;
import jakarta.interceptor.InvocationContext;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.ConnectException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
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
    void aStatementsOwnFailureIsNot() {
        assertThat(DatabaseAccessInterceptor.unreachable(new VertxException(
                "duplicate key value violates unique constraint \"users_email_key\""))).isFalse();
        assertThat(DatabaseAccessInterceptor.unreachable(new IllegalArgumentException("no such column"))).isFalse();
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
    void everyOtherResultOrFailurePassesUnchanged() throws Exception {
        IllegalStateException own = new IllegalStateException("a contact without a phone number");
        Uni<?> failing = (Uni<?>) interceptor.translate(invocation(() -> Uni.createFrom().failure(own)));
        assertThatThrownBy(() -> failing.await().atMost(Duration.ofSeconds(1))).isSameAs(own);
        Uni<?> ok = (Uni<?>) interceptor.translate(invocation(() -> Uni.createFrom().item(42)));
        assertThat(ok.await().atMost(Duration.ofSeconds(1))).isEqualTo(42);
        assertThat(interceptor.translate(invocation(() -> "plain"))).isEqualTo("plain");
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
