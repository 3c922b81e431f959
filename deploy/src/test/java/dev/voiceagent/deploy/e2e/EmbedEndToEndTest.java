package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.TestClock;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Website embeds: the token, the origin rules and CORS, chat and voice sessions, the usage limit, rate limits. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class EmbedEndToEndTest {

    private static final String EMBED = "/api/v1/public/embed";
    private String key;
    private long workflow;

    private static RequestSpecification as(String key) {
        return given().header("X-API-Key", key).contentType(ContentType.JSON);
    }

    private static RequestSpecification page(String origin) {
        return given().header("Origin", origin).contentType(ContentType.JSON);
    }

    @BeforeEach
    void agent() {
        key = Api.createKey(Api.signUp("embed"), "k");
        TextChatEndToEndTest.useSimulator(key);
        workflow = TextChatEndToEndTest.createWorkflow(key, TextChatEndToEndTest.bookingAgent(), null);
    }

    @AfterEach
    void time() {
        TestClock.reset();
    }

    private String token(Map<String, Object> body) {
        return as(key).body(body).post("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(200)
                .extract().path("token");
    }

    @Test
    void theWorkflowHasOneTokenThatIsSavedReadAndDeactivatedByItsOrganizationOnly() {
        assertThat(as(key).get("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(200).extract()
                .asString()).isEqualTo("null");
        JsonPath saved = as(key).body(Map.of("allowed_domains", List.of("example.com"), "settings",
                Map.of("widgetType", "chat"), "usage_limit", 5)).post("/api/v1/workflow/" + workflow + "/embed-token")
                .then().statusCode(200).extract().jsonPath();
        String token = saved.getString("token");
        assertThat(token).startsWith("emb_").hasSizeGreaterThan(40);
        // the reference's snippet: the widget from the dashboard's origin (its local default), told where this API is
        assertThat(saved.getString("embed_script")).startsWith("<!-- Dograh Widget -->\n<script>")
                .contains("js.src = 'http://localhost:3010/embed/dograh-widget.js?token=" + token
                        + "&environment=local&apiEndpoint=http://localhost:")
                .contains("js.setAttribute('data-dograh-context'", "{{initial_context.page_url}}")
                .endsWith("</script>");
        assertThat(saved.getBoolean("is_active")).isTrue();
        assertThat(saved.getString("expires_at")).isNotNull();

        JsonPath updated = as(key).body(Map.of("allowed_domains", List.of("example.org"), "expires_in_days", 7))
                .post("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(200).extract().jsonPath();
        assertThat(updated.getString("token")).isEqualTo(token);
        assertThat(updated.getList("allowed_domains")).containsExactly("example.org");
        assertThat(updated.getString("settings.widgetType")).isEqualTo("chat");
        assertThat(as(key).get("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(200).extract()
                .jsonPath().getString("token")).isEqualTo(token);

        String other = Api.createKey(Api.signUp("embed-other"), "k");
        as(other).get("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(404);
        as(other).body(Map.of()).post("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(404);
        as(other).delete("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(404);

        as(key).delete("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(200);
        assertThat(as(key).get("/api/v1/workflow/" + workflow + "/embed-token").then().extract().asString())
                .isEqualTo("null");
        as(key).delete("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(404);
        page("https://example.org").body(Map.of("token", token)).post(EMBED + "/init").then().statusCode(403)
                .body("detail", equalTo("Embed token is inactive"));
        as(key).body(Map.of("usage_limit", 0)).post("/api/v1/workflow/" + workflow + "/embed-token").then().statusCode(422);
    }

    @Test
    void aPageIsAllowedByItsOriginOrRefererAgainstTheTokensDomains() {
        String token = token(Map.of("allowed_domains", List.of("example.com", "*.acme.io", "localhost:3000")));
        for (String allowed : List.of("https://example.com", "https://www.example.com", "https://app.acme.io",
                "https://acme.io", "http://localhost:3000")) {
            page(allowed).get(EMBED + "/config/" + token).then().statusCode(200)
                    .header("Access-Control-Allow-Origin", allowed);
        }
        for (String refused : List.of("https://evil.com", "http://localhost:3001", "https://example.com.evil.com",
                "https://notacme.io")) {
            page(refused).get(EMBED + "/config/" + token).then().statusCode(403)
                    .body("detail", equalTo("Domain not allowed: " + refused))
                    .header("Access-Control-Allow-Origin", refused); // readable by the page: why it was refused
        }
        given().header("Referer", "https://www.example.com/pricing?x=1").get(EMBED + "/config/" + token).then()
                .statusCode(200);
        given().get(EMBED + "/config/" + token).then().statusCode(403);
        given().get(EMBED + "/config/emb_nope").then().statusCode(404);

        String open = token(Map.of("allowed_domains", List.of()));
        assertThat(open).isEqualTo(token);
        page("https://anywhere.example").get(EMBED + "/config/" + token).then().statusCode(200)
                .body("theme", equalTo("light")).body("texts.endChatText", equalTo("End chat"));
    }

    @Test
    void preflightsAnswerByTheTokensDomainsAndOtherPathsNeverByAnEmbedsDomains() {
        String token = token(Map.of("allowed_domains", List.of("acme.io")));
        Response ok = given().header("Origin", "https://acme.io").header("Access-Control-Request-Method", "GET")
                .options(EMBED + "/config/" + token);
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.header("Access-Control-Allow-Origin")).isEqualTo("https://acme.io");
        assertThat(ok.header("Access-Control-Max-Age")).isEqualTo("86400");
        assertThat(ok.header("Access-Control-Allow-Methods")).isEqualTo("GET, OPTIONS");
        assertThat(ok.header("Vary")).contains("Origin");
        given().header("Origin", "https://evil.com").header("Access-Control-Request-Method", "GET")
                .options(EMBED + "/config/" + token).then().statusCode(403);
        given().header("Origin", "https://evil.com").header("Access-Control-Request-Method", "POST")
                .options(EMBED + "/init").then().statusCode(200).header("Access-Control-Allow-Origin", "https://evil.com");
        // a session path: an unknown session passes (the request then says why), a known one from another domain not
        given().header("Origin", "https://evil.com").header("Access-Control-Request-Method", "POST")
                .options(EMBED + "/chat/emb_session_unknown/messages").then().statusCode(200);

        // an embed's allowed domain gets nothing from the other paths
        Response health = given().header("Origin", "https://acme.io").get("/api/v1/health");
        assertThat(health.header("Access-Control-Allow-Origin")).isNull();
        given().header("Origin", "https://acme.io").header("Access-Control-Request-Method", "GET")
                .options("/api/v1/workflow/fetch").then().statusCode(403);
    }

    @Test
    void aSessionsPreflightsAnswerItsPagesWithEachPathsMethodsAndRefuseAnotherDomain() {
        String token = token(Map.of("allowed_domains", List.of("acme.io"), "settings", Map.of("widgetType", "chat")));
        String session = page("https://acme.io").body(Map.of("token", token)).post(EMBED + "/init").then()
                .statusCode(200).extract().path("session_token");
        Map<String, String> methods = Map.of("/chat/" + session, "GET, POST, OPTIONS",
                "/chat/" + session + "/messages", "GET, POST, OPTIONS", "/chat/" + session + "/end",
                "GET, POST, OPTIONS", "/turn-credentials/" + session, "GET, OPTIONS");
        for (Map.Entry<String, String> path : methods.entrySet()) {
            Response ok = given().header("Origin", "https://acme.io").header("Access-Control-Request-Method", "POST")
                    .options(EMBED + path.getKey());
            assertThat(ok.statusCode()).as(path.getKey()).isEqualTo(200);
            assertThat(ok.header("Access-Control-Allow-Origin")).as(path.getKey()).isEqualTo("https://acme.io");
            assertThat(ok.header("Access-Control-Allow-Methods")).as(path.getKey()).isEqualTo(path.getValue());
            assertThat(ok.header("Access-Control-Allow-Headers")).isEqualTo("Content-Type, Origin");
            assertThat(ok.header("Access-Control-Max-Age")).isEqualTo("86400");
            assertThat(ok.header("Vary")).isEqualTo("Origin");

            Response refused = given().header("Origin", "https://evil.com").header("Access-Control-Request-Method",
                    "POST").options(EMBED + path.getKey());
            assertThat(refused.statusCode()).as(path.getKey()).isEqualTo(403);
            assertThat(refused.jsonPath().getString("detail")).isEqualTo("Origin not allowed for this embed");
            assertThat(refused.header("Access-Control-Allow-Origin")).as("a refused preflight grants nothing")
                    .isNull();
        }
        // no Origin at all (not a browser's preflight): init's answers granting no origin, a known session's refuses
        Response bare = given().options(EMBED + "/init");
        assertThat(bare.statusCode()).isEqualTo(200);
        assertThat(bare.header("Access-Control-Allow-Origin")).isNull();
        assertThat(bare.header("Access-Control-Allow-Methods")).isEqualTo("POST, OPTIONS");
        given().options(EMBED + "/chat/" + session).then().statusCode(403);
        // a token or session longer than any is refused as the path's value, as the other methods refuse it
        given().header("Origin", "https://acme.io").options(EMBED + "/config/" + "x".repeat(257)).then()
                .statusCode(422).body("detail[0].loc", equalTo(List.of("path", "token")))
                .body("detail[0].type", equalTo("string_length"))
                .body("detail[0].msg", equalTo("size must be between 0 and 256"))
                .body("detail[0].input", equalTo("x".repeat(257)));
        given().header("Origin", "https://acme.io").options(EMBED + "/chat/" + "x".repeat(257) + "/end").then()
                .statusCode(422).body("detail[0].loc", equalTo(List.of("path", "session_token")));
        // a path the widget does not call has no preflight here
        given().header("Origin", "https://acme.io").header("Access-Control-Request-Method", "GET")
                .options(EMBED + "/nothing").then().statusCode(404);
    }

    @Test
    void aChatWidgetGreetsOnInitAndChatsUntilItEnds() {
        String token = token(Map.of("allowed_domains", List.of("acme.io"), "settings", Map.of("widgetType", "chat",
                "theme", "dark")));
        JsonPath init = page("https://acme.io").body(Map.of("token", token, "context_variables", Map.of(
                "first_name", "Ann", "company", "Acme Dental", "bad key!", "x", "nested", Map.of("a", 1))))
                .post(EMBED + "/init").then().statusCode(200).header("Access-Control-Allow-Origin", "https://acme.io")
                .extract().jsonPath();
        String session = init.getString("session_token");
        assertThat(session).startsWith("emb_session_");
        assertThat(init.getString("widget_type")).isEqualTo("chat");
        assertThat(init.getString("config.theme")).isEqualTo("dark");
        assertThat(init.getBoolean("config.turn_enabled")).isTrue();
        assertThat(init.getString("chat_session.turns[0].assistant_message.text"))
                .isEqualTo("Hello Ann, this is Acme Dental.");
        long run = init.getLong("workflow_run_id");
        JsonPath runDetail = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + run).then().statusCode(200)
                .extract().jsonPath();
        assertThat(runDetail.getMap("initial_context")).containsKeys("first_name", "company")
                .doesNotContainKeys("bad key!", "nested");
        assertThat(runDetail.getString("annotations.embed.modality")).isEqualTo("text");

        JsonPath answered = page("https://acme.io").body(Map.of("text", "I want to book an appointment"))
                .post(EMBED + "/chat/" + session + "/messages").then().statusCode(200).extract().jsonPath();
        assertThat(answered.getInt("revision")).isEqualTo(1);
        assertThat(answered.getString("turns[1].assistant_message.text")).isEqualTo("May I ask which day suits you?");
        assertThat(answered.getMap("turns[1]")).containsOnlyKeys("id", "status", "user_message", "assistant_message");
        page("https://acme.io").get(EMBED + "/chat/" + session).then().statusCode(200).body("revision", equalTo(1));
        page("https://evil.com").get(EMBED + "/chat/" + session).then().statusCode(403);
        page("https://acme.io").get(EMBED + "/chat/emb_session_nope").then().statusCode(404);

        // five messages a second per chat: a burst beyond is a 429
        List<Integer> burst = IntStream.range(0, 8).mapToObj(i -> page("https://acme.io").body(Map.of("text",
                "hello " + i)).post(EMBED + "/chat/" + session + "/messages").statusCode()).toList();
        assertThat(burst).contains(429);

        page("https://acme.io").body(Map.of()).post(EMBED + "/chat/" + session + "/end").then().statusCode(200)
                .body("is_completed", equalTo(true));
        TestClock.advance(Duration.ofSeconds(2)); // past the burst's window
        page("https://acme.io").body(Map.of("text", "still there?")).post(EMBED + "/chat/" + session + "/messages")
                .then().statusCode(400).body("detail.code", equalTo("chat_completed"));
    }

    @Test
    void theUsageLimitAdmitsExactlyThatManyPagesUnderConcurrency() {
        String token = token(Map.of("usage_limit", 10));
        List<CompletableFuture<Integer>> inits = IntStream.range(0, 20).mapToObj(i -> CompletableFuture.supplyAsync(() ->
                page("https://acme.io").body(Map.of("token", token)).post(EMBED + "/init").statusCode())).toList();
        List<Integer> statuses = inits.stream().map(CompletableFuture::join).toList();
        assertThat(statuses.stream().filter(s -> s == 200)).hasSize(10);
        assertThat(statuses.stream().filter(s -> s == 403)).hasSize(10);
        assertThat(as(key).get("/api/v1/workflow/" + workflow + "/embed-token").then().extract().jsonPath()
                .getInt("usage_count")).isEqualTo(10);
    }

    @Test
    void aVoiceWidgetStartsAnInboundRunAndItsSessionGetsTurnCredentialsForAnHour() {
        String token = token(Map.of("allowed_domains", List.of("acme.io")));
        JsonPath init = page("https://acme.io").body(Map.of("token", token)).post(EMBED + "/init").then()
                .statusCode(200).extract().jsonPath();
        assertThat(init.getString("widget_type")).isEqualTo("voice");
        assertThat(init.getString("chat_session")).isNull();
        JsonPath run = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + init.getLong("workflow_run_id")).then()
                .statusCode(200).extract().jsonPath();
        assertThat(run.getString("mode")).isEqualTo("smallwebrtc");
        assertThat(run.getString("call_type")).isEqualTo("inbound");

        String session = init.getString("session_token");
        JsonPath turn = page("https://acme.io").get(EMBED + "/turn-credentials/" + session).then().statusCode(200)
                .extract().jsonPath();
        assertThat(turn.getString("username")).endsWith(":embed:" + session.substring(0, 16));
        page("https://acme.io").get(EMBED + "/turn-credentials/emb_session_nope").then().statusCode(404);
        page("https://acme.io").get(EMBED + "/chat/" + session).then().statusCode(400); // a voice run has no chat

        TestClock.advance(Duration.ofMinutes(61));
        page("https://acme.io").get(EMBED + "/turn-credentials/" + session).then().statusCode(403)
                .body("detail", equalTo("Session expired"));
        TestClock.advance(Duration.ofDays(31));
        page("https://acme.io").body(Map.of("token", token)).post(EMBED + "/init").then().statusCode(403)
                .body("detail", equalTo("Embed token has expired"));
    }
}
