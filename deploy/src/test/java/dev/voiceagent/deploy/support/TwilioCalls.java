package dev.voiceagent.deploy.support;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.telephony.FormBody;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Outbound Twilio calls of one organization in an end-to-end test: its Twilio configuration and number (against
 * {@link FakeProviderServer}), a call placed for a workflow and the media address Twilio was told to stream to, and the
 * call's run once it is over (its disposition, usage, log and transcript).
 */
public final class TwilioCalls {

    public static final String SID = "AC" + "0123456789abcdef".repeat(2);
    public static final String AUTH_TOKEN = "twilio-auth-token-1";
    private static final Pattern STREAM = Pattern.compile("<Stream url=\"([^\"]+)\"");

    private final String key;
    /** The organization's Twilio configuration. */
    public final long config;

    /** Configures Twilio (and a number to call from) for the organization whose API key this is. */
    public TwilioCalls(String key) {
        this.key = key;
        this.config = as(key).body(Map.of("name", "Twilio", "config", Map.of("provider", "twilio", "account_sid", SID,
                "auth_token", AUTH_TOKEN))).post("/api/v1/organizations/telephony-configs").then().statusCode(200)
                .extract().jsonPath().getLong("id");
        as(key).body(Map.of("address", "+14155552671")).post("/api/v1/organizations/telephony-configs/" + config
                + "/phone-numbers").then().statusCode(200);
    }

    public static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    /** Places a call of the workflow; the media address Twilio was told to stream to. */
    public String dial(long workflow) {
        FakeProviderServer.REQUESTS.clear();
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200);
        // the call's request (a hang-up of the previous test's call may land here late)
        String twiml = FakeProviderServer.REQUESTS.stream()
                .map(r -> FormBody.first(FormBody.parse(r.body()), "Twiml")).filter(Objects::nonNull).findFirst()
                .orElseThrow(() -> new AssertionError("no call placed: " + FakeProviderServer.REQUESTS));
        Matcher m = STREAM.matcher(twiml);
        assertThat(m.find()).as(twiml).isTrue();
        return m.group(1);
    }

    /** The run a media address belongs to. */
    public static long runOf(String url) {
        String[] parts = url.split("/");
        return Long.parseLong(parts[parts.length - 2]);
    }

    public JsonPath run(long workflow, long runId) {
        return as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(200).extract()
                .jsonPath();
    }

    /** The run once it completed (polled for up to 10 s). */
    public JsonPath completedRun(long workflow, long runId) throws InterruptedException {
        for (int i = 0; i < 100; i++) {
            JsonPath run = run(workflow, runId);
            if (run.getBoolean("is_completed")) {
                return run;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("run " + runId + " never completed");
    }

    /**
     * How the call ended (the media socket's close reason), waiting up to {@code seconds}; when it did not, the caller
     * hangs up and the failure says where the run stood.
     */
    public String ended(SimulatedCaller caller, long workflow, long runId, int seconds) throws Exception {
        try {
            return caller.closed.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            caller.hangUp();
            throw new AssertionError("the call did not end; the caller spoke " + caller.speech.size()
                    + " times, heard " + caller.agentFrames.size() + " frames; the run's events: "
                    + completedRun(workflow, runId).getList("logs.realtime_feedback_events") + "; STT control "
                    + FakeVoiceProviders.STT_CONTROL + ", chat requests " + FakeVoiceProviders.CHAT_REQUESTS.size());
        }
    }

    /** The run's transcript ("user: ..." and "assistant: ..." lines) through its public link. */
    public static String transcript(JsonPath run) {
        return new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
    }

    /** The payloads of the log's events of one type, in order. */
    @SuppressWarnings("unchecked")
    public static List<Map<String, Object>> payloads(List<Map<String, Object>> events, String type) {
        return events.stream().filter(e -> type.equals(e.get("type")))
                .map(e -> (Map<String, Object>) e.get("payload")).toList();
    }
}
