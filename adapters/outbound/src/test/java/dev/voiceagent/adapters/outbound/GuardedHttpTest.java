package dev.voiceagent.adapters.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The one way out to a provider: the address guard (also on redirects), the body cap and the time limit. */
class GuardedHttpTest {

    private static final List<String> PATHS = new CopyOnWriteArrayList<>();
    private static HttpServer server;
    private static Vertx vertx;
    private static String base;

    @BeforeAll
    static void start() throws IOException {
        vertx = Vertx.vertx();
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            PATHS.add(path);
            byte[] body = new byte[0];
            int status = 200;
            switch (path) {
                case "/big" -> body = "x".repeat(3 << 20).getBytes(StandardCharsets.UTF_8);
                case "/slow" -> {
                    try {
                        Thread.sleep(2_000);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
                case "/to-private" -> {
                    status = 302;
                    exchange.getResponseHeaders().add("Location", "http://10.20.30.40/models");
                }
                case "/loop" -> {
                    status = 302;
                    exchange.getResponseHeaders().add("Location", "/loop");
                }
                case "/hop" -> {
                    status = 307;
                    exchange.getResponseHeaders().add("Location", "/ok");
                }
                default -> body = "{\"ok\": true}".getBytes(StandardCharsets.UTF_8);
            }
            try {
                exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
                exchange.getResponseBody().write(body);
            } catch (IOException gone) {
                // the client gave up
            } finally {
                exchange.close();
            }
        });
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
    }

    @AfterAll
    static void stop() {
        server.stop(0);
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        PATHS.clear();
    }

    private static GuardedHttp http(List<String> allowed) {
        return new GuardedHttp(vertx, Optional.of(allowed), Duration.ofMillis(700));
    }

    @Test
    void aGuardedRequestToALoopbackAddressIsRefusedBeforeConnecting() {
        assertThatThrownBy(() -> http(List.of()).get(base + "/ok", Map.of(), true).await().indefinitely())
                .isInstanceOf(GuardedHttp.Unreachable.class).hasMessageContaining("loopback")
                .hasMessageContaining("not allowed");
        assertThat(PATHS).isEmpty();
        // the installation's own addresses are not guarded
        assertThat(http(List.of()).get(base + "/ok", Map.of(), false).await().indefinitely().status()).isEqualTo(200);
    }

    @Test
    void aRedirectIsFollowedOnlyToAnAllowedAddressAndOnlyAFewTimes() {
        GuardedHttp http = http(List.of("127.0.0.1"));
        assertThat(http.get(base + "/hop", Map.of(), true).await().indefinitely().body()).contains("ok");
        assertThatThrownBy(() -> http.get(base + "/to-private", Map.of(), true).await().indefinitely())
                .hasMessageContaining("10.20.30.40").hasMessageContaining("not allowed");
        assertThatThrownBy(() -> http.get(base + "/loop", Map.of(), true).await().indefinitely())
                .hasMessageContaining("Too many redirects");
        assertThat(PATHS.stream().filter("/loop"::equals)).hasSize(GuardedHttp.MAX_REDIRECTS + 1);
    }

    @Test
    void aBodyIsReadUpToItsCapAndASlowProviderTimesOut() {
        GuardedHttp http = http(List.of("127.0.0.1"));
        assertThat(http.get(base + "/big", Map.of(), true).await().indefinitely().body())
                .hasSize(GuardedHttp.MAX_BODY);
        long started = System.nanoTime();
        assertThatThrownBy(() -> http.get(base + "/slow", Map.of(), true).await().indefinitely())
                .isInstanceOf(GuardedHttp.Unreachable.class).hasMessageContaining("timed out");
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMillis(1_900));
    }

    @Test
    void theGuardMatrixPrivateLinkLocalMetadataAndANameThatResolvesToAPrivateAddress() {
        // a name is checked by the address it resolves to, and the connection goes to that checked address
        GuardedHttp http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(700),
                host -> host.equals("intranet.example")
                        ? new java.net.InetAddress[] {java.net.InetAddress.getByAddress(host, new byte[] {10, 1, 2, 3})}
                        : java.net.InetAddress.getAllByName(host));
        for (String url : List.of("http://intranet.example/orders", "http://10.0.0.8/", "http://169.254.169.254/latest",
                "http://172.16.5.5/", "http://192.168.0.1/", "http://[fd00::1]/", "http://0.0.0.0/")) {
            assertThatThrownBy(() -> http.exchange("GET", url, Map.of(), null, Duration.ofSeconds(1)).await()
                    .indefinitely()).as(url).isInstanceOf(GuardedHttp.Refused.class).hasMessageContaining("not allowed");
        }
        // without the installation's setting, loopback is refused too
        assertThatThrownBy(() -> http(List.of()).exchange("GET", base + "/ok", Map.of(), null, Duration.ofSeconds(1))
                .await().indefinitely()).isInstanceOf(GuardedHttp.Refused.class).hasMessageContaining("loopback");
        assertThat(PATHS).isEmpty();
    }

    @Test
    void anExchangeReturnsTheWholeAnswerAndDoesNotRepeatAPostElsewhere() {
        GuardedHttp http = http(List.of("127.0.0.1"));
        GuardedHttp.Exchange posted = http.exchange("POST", base + "/hop", Map.of("Authorization", "Bearer x"),
                "{}".getBytes(StandardCharsets.UTF_8), Duration.ofSeconds(1)).await().indefinitely();
        assertThat(posted.status()).isEqualTo(307);
        assertThat(posted.headers()).containsEntry("location", "/ok");
        assertThat(PATHS).containsExactly("/hop");
        GuardedHttp.Exchange big = http.exchange("GET", base + "/big", Map.of(), null, Duration.ofSeconds(2)).await()
                .indefinitely();
        assertThat(big.truncated()).isTrue();
        assertThat(big.body()).hasSize(GuardedHttp.MAX_BODY);
        GuardedHttp.Exchange small = http.exchange("GET", base + "/ok", Map.of(), null, Duration.ofSeconds(1)).await()
                .indefinitely();
        assertThat(small.truncated()).isFalse();
        assertThat(small.durationMs()).isNotNegative();
    }

    @Test
    void aUrlThatIsNotHttpIsRefused() {
        assertThatThrownBy(() -> http(List.of()).get("file:///etc/passwd", Map.of(), true).await().indefinitely())
                .hasMessageContaining("Not an http(s) URL");
        assertThatThrownBy(() -> http(List.of()).get("gopher://x", Map.of(), true).await().indefinitely())
                .hasMessageContaining("Not an http(s) URL");
    }

    @Test
    void aProvidersErrorIsReadInItsOwnWords() {
        assertThat(ProviderChecks.message("{\"error\": {\"message\": \"Incorrect API key\"}}"))
                .isEqualTo("Incorrect API key");
        assertThat(ProviderChecks.message("{\"detail\": {\"status\": \"invalid\", \"message\": \"Invalid API key\"}}"))
                .isEqualTo("Invalid API key");
        assertThat(ProviderChecks.message("{\"err_code\": \"INVALID_AUTH\", \"err_msg\": \"Invalid credentials.\"}"))
                .isEqualTo("Invalid credentials.");
        assertThat(ProviderChecks.message("<html>Bad gateway</html>")).isEqualTo("<html>Bad gateway</html>");
        assertThat(ProviderChecks.message("")).isNull();
        assertThat(ProviderChecks.message("y".repeat(1000))).hasSize(303);
    }
}
