package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.simulator.ear.PocketSphinxEar;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.BrowserCaller;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * A newcomer's first call on a laptop, no keys: a built-in template's copy on the simulator's models, talked to from a
 * browser over the plain WebSocket route by a person (FreeTTS's voice as 16 kHz PCM) whom the local ear (Debian's
 * pocketsphinx, installed by .ci/install-pocketsphinx) hears; the simulator model follows the graph on what was heard.
 */
@QuarkusTest
@EnabledIf("installed")
@WithTestResource(EmbeddedPostgresResource.class)
class LocalEarEndToEndTest {

    @Inject
    Vertx vertx;

    @ConfigProperty(name = "quarkus.http.test-port", defaultValue = "8081")
    int port;

    static boolean installed() {
        boolean available = PocketSphinxEar.available(); // the program and its model, as the ear itself asks
        if (!available && "required".equals(System.getenv("VOICEAGENT_TEST_POCKETSPHINX"))) {
            throw new IllegalStateException("pocketsphinx is required but not installed: run .ci/install-pocketsphinx");
        }
        return available;
    }

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @Test
    void aPersonInABrowserIsHeardByTheLocalEarAndTheAgentFollowsTheGraphOnWhatTheySaid() throws Exception {
        String key = Api.createKey(Api.signUp("ear"), "k");
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "simulator"), "stt", Map.of("provider", "simulator"),
                "tts", Map.of("provider", "simulator"))))).put("/api/v1/organizations/model-configurations/v2")
                .then().statusCode(200);
        long workflow = as(key).body(Map.of("template_id", 1, "workflow_name", "Dental reminders"))
                .post("/api/v1/workflow/templates/duplicate").then().statusCode(200).extract().jsonPath().getLong("id");
        long runId = as(key).body(Map.of("mode", "smallwebrtc", "name", "Laptop call")).post("/api/v1/workflow/"
                + workflow + "/runs").then().statusCode(200).extract().jsonPath().getLong("id");

        BrowserCaller caller = new BrowserCaller(vertx);
        try {
            caller.connect("ws://localhost:" + port + "/api/v1/ws/voice/" + workflow + "/" + runId + "?token=" + key,
                    null);
            caller.pauses(7_000).says("Yes, I am ready.").pauses(9_000).says("I would like to cancel my appointment.")
                    .pauses(12_000);
            String reason = caller.closed.get(60, TimeUnit.SECONDS);
            JsonPath run = null;
            for (int i = 0; i < 100 && (run == null || !run.getBoolean("is_completed")); i++) {
                run = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(200).extract()
                        .jsonPath();
                Thread.sleep(100);
            }
            String transcript = new String(Api.download(run.getString("transcript_public_url")),
                    StandardCharsets.UTF_8);
            assertThat(reason).as("the call ended at the graph's end; transcript:%n%s", transcript)
                    .isEqualTo("end_call_node");
            assertThat(transcript).as("the template's example values said, never braces")
                    .startsWith("assistant: Hi Alex, this is Acme Dental calling about your appointment on Tuesday"
                            + " at 10 am.\n").doesNotContain("{{")
                    .contains("user: yes i am ready\n", "user: i would like to cancel my appointment\n")
                    .endsWith("assistant: Thank you for your time. Goodbye.\n");
            assertThat(run.getDouble("usage_info.stt.'simulator/simulator'.audio_seconds")).isGreaterThan(5.0);
            List<String> nodes = run.getList("logs.realtime_feedback_events.findAll { it.type == 'rtf-node-transition'"
                    + " }.payload.node_id");
            assertThat(nodes).as("start, then the conversation, then the end").containsSubsequence("agent", "end");
        } finally {
            caller.close();
        }
    }
}
