package dev.voiceagent.adapters.media;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.auth.AuthenticateUseCase;
import dev.voiceagent.application.shared.AuthenticationException;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.shared.PaymentRequiredException;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.AdmitBrowserMediaUseCase;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.AdmitCallMediaUseCase;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The media routes' refusals before the upgrade, on a real router: one mapping of an admission's failures to a status
 * and {@code {"detail": ...}} for the carriers' route and the browsers' routes, the detail written by a JSON library
 * whatever it holds, and this side's trouble a 503 that says nothing of it.
 */
class MediaRefusalTest {

    private static Vertx vertx;
    private static HttpClient client;
    private static int port;
    /** What the admissions fail with, per test. */
    private static volatile RuntimeException failure;

    @BeforeAll
    static void routes() throws Exception {
        vertx = Vertx.vertx();
        AdmitCallMediaUseCase carriers = (workflow, organization, run, token) -> Uni.createFrom().failure(failure);
        AdmitBrowserMediaUseCase browsers = new AdmitBrowserMediaUseCase() {
            @Override
            public Uni<Admitted> admit(Principal principal, long workflowId, long runId) {
                return Uni.createFrom().failure(failure);
            }

            @Override
            public Uni<Admitted> admitEmbed(String sessionToken, String origin) {
                return Uni.createFrom().failure(failure);
            }

            @Override
            public Uni<Admitted> withContextVariables(Admitted admitted, Map<String, Object> variables) {
                return Uni.createFrom().failure(failure);
            }
        };
        AuthenticateUseCase authenticate = credentials -> Uni.createFrom().failure(failure);
        Router router = Router.router(vertx);
        new CarrierMediaRoute(carriers, new ScriptedStart(), vertx, Duration.ofSeconds(10)).routes(router);
        new BrowserVoiceRoute(authenticate, browsers, new ScriptedStart(), vertx, Optional.of(List.of("127.0.0.1")),
                Optional.empty()).routes(router);
        HttpServer server = vertx.createHttpServer().requestHandler(router);
        port = server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS)
                .actualPort();
        client = vertx.createHttpClient();
    }

    @AfterAll
    static void close() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    /** "status detail" of a WebSocket upgrade asked of {@code path} (or a plain GET when {@code upgrade} is false). */
    private static String refused(String path, boolean upgrade) throws Exception {
        return client.request(HttpMethod.GET, port, "127.0.0.1", path).compose(request -> {
            if (upgrade) {
                request.putHeader("Upgrade", "websocket").putHeader("Connection", "Upgrade")
                        .putHeader("Sec-WebSocket-Version", "13")
                        .putHeader("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==");
            }
            return request.send().compose(response -> response.body().map(body -> {
                assertThat(response.getHeader("Content-Type")).isEqualTo("application/json");
                assertThat(response.getHeader("Retry-After")).as("only this side's trouble says when to try again")
                        .isEqualTo(response.statusCode() == 503 ? "5" : null);
                return response.statusCode() + " " + new JsonObject(body).getString("detail");
            }));
        }).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    private static String carrier(RuntimeException admission) throws Exception {
        failure = admission;
        return refused("/api/v1/telephony/ws/2/1/3/token", true);
    }

    private static String browser(RuntimeException admission) throws Exception {
        failure = admission;
        return refused("/api/v1/ws/public/voice/session-token", true);
    }

    @Test
    void eachFailureOfAnAdmissionIsOneStatusOnEveryRoute() throws Exception {
        assertThat(carrier(new ForbiddenException("Invalid media token"))).isEqualTo("403 Invalid media token");
        assertThat(carrier(new ResourceNotFoundException("Workflow run not found")))
                .isEqualTo("404 Workflow run not found");
        assertThat(carrier(new ConflictException("Workflow run already has an active call")))
                .isEqualTo("409 Workflow run already has an active call");

        assertThat(browser(new AuthenticationException("Not authenticated"))).isEqualTo("401 Not authenticated");
        assertThat(browser(new PaymentRequiredException("Insufficient credits"))).isEqualTo("402 Insufficient credits");
        assertThat(browser(new ForbiddenException("This page may not use the widget")))
                .isEqualTo("403 This page may not use the widget");
        assertThat(browser(new ResourceNotFoundException("Session not found"))).isEqualTo("404 Session not found");
        assertThat(browser(new ConflictException("Workflow run is not a browser run")))
                .isEqualTo("409 Workflow run is not a browser run");
        failure = new AuthenticationException("Invalid API key");
        assertThat(refused("/api/v1/ws/voice/2/3?token=wrong", true)).isEqualTo("401 Invalid API key");
    }

    @Test
    void thisSidesTroubleIsA503ThatSaysNothingOfIt() throws Exception {
        RuntimeException down = new IllegalStateException("connection to 10.0.0.7:5432 refused");

        assertThat(carrier(down)).isEqualTo("503 The media could not be connected");
        assertThat(browser(down)).isEqualTo("503 The media could not be connected");
        assertThat(MediaRefusal.of(down, "media of run 3")).isEqualTo(new MediaRefusal(503,
                "The media could not be connected"));
    }

    @Test
    void aDetailIsWrittenAsJsonWhateverItHolds() throws Exception {
        String detail = "Run \"7\" of C:\\calls\\ is <done>\n\u0001";

        assertThat(carrier(new ConflictException(detail))).isEqualTo("409 " + detail);
        assertThat(browser(new ConflictException(detail))).isEqualTo("409 " + detail);
    }

    @Test
    void whatIsNotAnUpgradeOrNotAnAddressIsRefusedBeforeTheAdmission() throws Exception {
        failure = new IllegalStateException("never asked");

        assertThat(refused("/api/v1/telephony/ws/2/1/3/token", false)).isEqualTo("400 This address takes a WebSocket");
        assertThat(refused("/api/v1/ws/public/voice/session-token", false))
                .isEqualTo("400 This address takes a WebSocket");
        assertThat(refused("/api/v1/telephony/ws/two/1/3/token", true)).isEqualTo("404 Workflow run not found");
        assertThat(refused("/api/v1/ws/voice/two/3", true)).isEqualTo("404 Workflow run not found");
    }
}
