package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.telephony.FormBody;
import dev.voiceagent.adapters.telephony.twilio.TwilioSignature;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.PackagedInstance;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.deploy.support.Speech;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.vertx.core.Vertx;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A phone call that outlives the replica it talks to: two packaged instances on one PostgreSQL behind one public
 * address (the test routes as a load balancer would), a simulated Twilio caller, local fakes of Twilio's REST API and
 * of the speech and language providers. The replica holding the call is killed (SIGKILL) after a turn; as Twilio does,
 * the caller's stream breaks without a stop message, the {@code <Redirect>} is fetched from the surviving replica, and
 * the caller keeps talking to it: the transcript has both halves, the run is completed once and billed once.
 */
class TwoReplicasVoiceCallIT {

    private static final String LB = "http://voice.lb.test";
    private static final String SID = "AC" + "0123456789abcdef".repeat(2);
    private static final String TOKEN = "twilio-auth-token-1";
    private static final Pattern STREAM = Pattern.compile("<Stream url=\"([^\"]+)\"");
    private static final Pattern REDIRECT = Pattern.compile("<Redirect method=\"POST\">([^<]+)</Redirect>");

    private static EmbeddedPostgres postgres;
    private static FakeProviderServer twilio;
    private static FakeVoiceProviders voices;
    private static Vertx vertx;
    private static final List<Process> processes = new ArrayList<>();

    @BeforeAll
    static void start() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        twilio = new FakeProviderServer();
        voices = new FakeVoiceProviders();
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void stop() throws Exception {
        processes.forEach(Process::destroyForcibly);
        for (Process p : processes) {
            p.waitFor();
        }
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        voices.stop();
        twilio.stop();
        postgres.close();
    }

    private static PackagedInstance launch(String name, List<String> properties) throws Exception {
        List<String> args = new ArrayList<>(properties);
        args.add("-Dvoiceagent.callbacks.base-url=" + LB); // both replicas behind one address
        args.add("-Dvoiceagent.usage.meter-every=1s");
        PackagedInstance instance = PackagedInstance.start("two-replicas-" + name, postgres.getPort(),
                Duration.ofSeconds(60), args.toArray(String[]::new));
        processes.add(instance.process());
        return instance;
    }

    /** What a load balancer does with the public address: the path goes to the replica chosen. */
    private static String at(PackagedInstance replica, String url) {
        String path = url.substring(url.indexOf("/api/"));
        return (url.startsWith("ws") ? "ws" : "http") + "://127.0.0.1:" + replica.port() + path;
    }

    private static String first(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        assertThat(m.find()).as(text).isTrue();
        return m.group(1);
    }

    private static long query(String sql, Object... args) throws Exception {
        try (Connection c = postgres.getPostgresDatabase().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    @Test
    void aCallWhoseReplicaIsKilledGoesOnWithTheOtherReplicaAndIsCompletedAndBilledOnce() throws Exception {
        List<String> properties = new ArrayList<>();
        Path store = Files.createTempDirectory("two-replicas-objects");
        properties.add("-Dvoiceagent.storage.local.root=" + store);
        twilio.start().forEach((k, v) -> properties.add("-D" + k + "=" + v));
        voices.start().forEach((k, v) -> properties.add("-D" + k + "=" + v));
        FakeVoiceProviders.reset();
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("It ships today. Anything else?"), Reply.calls("done"),
                Reply.says("Thank you, goodbye.")));
        PackagedInstance a = launch("a", properties);
        PackagedInstance b = launch("b", properties);

        String email = "replicas-" + UUID.randomUUID() + "@example.com";
        String token = given().port(a.port()).contentType(ContentType.JSON).body(Map.of("email", email, "password",
                "correct-horse-battery", "name", "r")).post("/api/v1/auth/signup").then().statusCode(200)
                .extract().path("token");
        String key = given().port(a.port()).header("authorization", "Bearer " + token).contentType(ContentType.JSON)
                .body(Map.of("name", "k")).post("/api/v1/user/api-keys").then().statusCode(200).extract()
                .path("api_key");
        a.as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "openai", "api_key", "sk-voice-test", "model", "gpt-4.1-mini"),
                "stt", Map.of("provider", "deepgram", "api_key", "dg-voice-test"),
                "tts", Map.of("provider", "elevenlabs", "api_key", "el-voice-test", "voice", "voice123")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        long workflow = a.as(key).body(Map.of("name", "Orders", "workflow_definition",
                        VoiceCallEndToEndTest.definition())).post("/api/v1/workflow/create/definition").then()
                .statusCode(200).extract().jsonPath().getLong("id");
        long config = a.as(key).body(Map.of("name", "Twilio", "config", Map.of("provider", "twilio", "account_sid",
                SID, "auth_token", TOKEN))).post("/api/v1/organizations/telephony-configs").then().statusCode(200)
                .extract().jsonPath().getLong("id");
        a.as(key).body(Map.of("address", "+14155552671")).post("/api/v1/organizations/telephony-configs/" + config
                + "/phone-numbers").then().statusCode(200);

        FakeProviderServer.REQUESTS.clear();
        a.as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200);
        String twiml = FormBody.first(FormBody.parse(FakeProviderServer.REQUESTS.getFirst().body()), "Twiml");
        String stream = first(STREAM, twiml);
        String resume = first(REDIRECT, twiml);
        String[] parts = stream.split("/");
        long runId = Long.parseLong(parts[parts.length - 2]);

        // replica A takes the call: the greeting, a question, its answer; then A is killed
        SimulatedCaller onA = new SimulatedCaller(vertx).resumable().connect(at(a, stream));
        // the question after the whole greeting has played, however late a loaded box starts it (at 1.6 s a slow
        // start once had the question cut the greeting, which the transcript below then kept cut)
        onA.pauses(3_000).says("Where is my order?").pauses(6_000);
        Thread.sleep(3_000 + Speech.mulaw("Where is my order?").length / 8 + 2_500);
        assertThat(FakeVoiceProviders.TTS_TEXTS).contains("It ships today.", "Anything else?");
        a.process().destroyForcibly();
        assertThat(a.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
        onA.closed.get(10, TimeUnit.SECONDS); // Twilio's stream broke, with no stop message

        // Twilio fetches the redirect from the replica the balancer picks, signed for the public address
        String body = "CallSid=CA1&AccountSid=" + SID + "&CallStatus=in-progress";
        String again = given().contentType(ContentType.URLENC).header("X-Twilio-Signature",
                        TwilioSignature.compute(TOKEN, resume, FormBody.parse(body))).body(body)
                .post(at(b, resume)).then().statusCode(200).extract().asString();
        SimulatedCaller onB = new SimulatedCaller(vertx).resumable().connect(at(b, first(STREAM, again)));
        onB.pauses(2_500).says("No that is all thanks.").pauses(1_000);
        String reason;
        try {
            reason = onB.closed.get(30, TimeUnit.SECONDS);
        } finally {
            onB.hangUp();
        }
        assertThat(reason).as("%s", FakeVoiceProviders.VIOLATIONS).isEqualTo("end_call_node");

        JsonPath run = null;
        for (int i = 0; i < 50; i++) {
            run = b.as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(200).extract()
                    .jsonPath();
            if (run.getBoolean("is_completed")) {
                break;
            }
            Thread.sleep(100);
        }
        assertThat(run.getBoolean("is_completed")).isTrue();
        assertThat(FakeVoiceProviders.TTS_TEXTS).contains("Sorry about that. Where were we?", "Thank you, goodbye.");
        String transcriptUrl = at(b, run.getString("transcript_public_url"));
        io.restassured.response.Response download = given().redirects().follow(false).get(transcriptUrl);
        while (download.statusCode() / 100 == 3) { // to the object store, at the public address too
            download = given().redirects().follow(false).get(at(b, download.getHeader("Location")));
        }
        String transcript = download.then().statusCode(200).extract().asString();
        assertThat(transcript).as("both halves").startsWith("assistant: Hello, this is Acme. How can I help you?\n"
                + "user: Where is my order?\nassistant: It ships today. Anything else?\n")
                .contains("user: No that is all thanks.\n").endsWith("assistant: Thank you, goodbye.\n");
        List<Map<String, Object>> events = run.getList("logs.realtime_feedback_events");
        assertThat(events).extracting(e -> e.get("type")).containsSubsequence("rtf-user-transcription",
                "rtf-call-resumed", "rtf-user-transcription", "rtf-call-ended");
        assertThat(events).filteredOn(e -> "rtf-call-ended".equals(e.get("type"))).hasSize(1);
        assertThat(run.getInt("usage_info.llm.'openai/gpt-4.1-mini'.total_tokens")).as("every answer, once")
                .isEqualTo(180);
        for (int i = 0; i < 100 && query("SELECT count(*) FROM usage_records WHERE workflow_run_id = ?", runId) == 0;
                i++) {
            Thread.sleep(100); // metered by the next tick (every second here)
        }
        assertThat(query("SELECT count(*) FROM usage_records WHERE workflow_run_id = ?", runId)).as("billed once")
                .isEqualTo(1);
        assertThat(query("SELECT prompt_tokens + completion_tokens FROM usage_records WHERE workflow_run_id = ?",
                runId)).as("metered with every answer's tokens, on both replicas").isEqualTo(180);
        assertThat(run.getDouble("usage_info.call_duration_seconds")).as("the whole call, on both replicas")
                .isGreaterThan(9.0);
        assertThat(query("SELECT media_moves FROM workflow_runs WHERE id = ?", runId)).isEqualTo(1);
    }
}
