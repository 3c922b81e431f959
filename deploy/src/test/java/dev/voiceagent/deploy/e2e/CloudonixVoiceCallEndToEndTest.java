package dev.voiceagent.deploy.e2e;

import static dev.voiceagent.deploy.support.VoiceAgents.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.deploy.support.SimulatedCaller.Carrier;
import dev.voiceagent.deploy.support.VoiceAgents;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.path.xml.XmlPath;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Cloudonix calls that talk, end to end: its REST API (a local stand-in that takes only the domain's own key and a
 * call with its destination and CXML) places the call with its CXML inline; the session's notifications come to the
 * address this service signed (a forged one refused); a simulated caller
 * speaks Cloudonix's stream (Twilio Media Streams' messages, no marks: the service paces its playout by the clock),
 * with Deepgram's, OpenAI's and ElevenLabs' protocols spoken by local stand-ins.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
@WithTestResource(FakeVoiceProviders.class)
class CloudonixVoiceCallEndToEndTest {

    private static final String DOMAIN = "acme.cloudonix.net";
    private static final String KEY = "XI0123456789abcdef0123456789abcdef";

    @Inject
    Vertx vertx;

    private String key;
    private long workflow;
    private final List<SimulatedCaller> callers = new ArrayList<>();

    @BeforeEach
    void setUp() {
        FakeProviderServer.REQUESTS.clear();
        FakeProviderServer.status = 201;
        FakeProviderServer.cloudonixDomain = DOMAIN;
        FakeProviderServer.cloudonixKey = KEY;
        FakeVoiceProviders.reset();
        key = VoiceAgents.organization("cloudonix-voice");
        workflow = VoiceAgents.workflow(key, "Orders", VoiceCallEndToEndTest.definition());
        long config = as(key).body(Map.of("name", "Cloudonix", "config", Map.of("provider", "cloudonix",
                "bearer_token", KEY, "domain_id", DOMAIN))).post("/api/v1/organizations/telephony-configs").then()
                .statusCode(200).extract().jsonPath().getLong("id");
        as(key).body(Map.of("address", "+14155552671", "inbound_workflow_id", workflow))
                .post("/api/v1/organizations/telephony-configs/" + config + "/phone-numbers").then().statusCode(200);
    }

    @AfterEach
    void hangUp() {
        callers.forEach(SimulatedCaller::close);
    }

    private SimulatedCaller caller() {
        SimulatedCaller caller = new SimulatedCaller(vertx, Carrier.CLOUDONIX, "PCMU");
        callers.add(caller);
        return caller;
    }

    private JsonPath completedRun(long runId) throws InterruptedException {
        return VoiceAgents.completedRun(key, workflow, runId);
    }

    private static String path(String url) {
        return url.substring(url.indexOf("/api/v1/"));
    }

    private static JsonObject session(String token, String status) {
        return new JsonObject().put("id", 991).put("eventId", UUID.randomUUID().toString()).put("domain", DOMAIN)
                .put("token", token).put("status", status).put("direction", "outgoing").put("destination",
                        "+442071838750").put("modifiedAt", java.time.Instant.now().toString());
    }

    @Test
    void aCloudonixCallTalksIsInterruptedWithoutMarksAndTheAgentHangsUpByDeletingTheSession() throws Exception {
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "Tell me about returns.",
                "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("Your order ships today. Is there anything else?"),
                new Reply(VoiceCallEndToEndTest.RETURNS + " " + VoiceCallEndToEndTest.REFUNDS, null, 60, null),
                Reply.calls("done"), Reply.says("Thank you, goodbye.")));
        long runId = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        FakeProviderServer.Received dial = FakeProviderServer.first("POST", "/calls/" + DOMAIN + "/application");
        assertThat(dial.path()).isEqualTo("/calls/" + DOMAIN + "/application");
        JsonObject call = new JsonObject(dial.body());
        assertThat(call.getString("destination")).isEqualTo("+442071838750");
        assertThat(call.getString("caller-id")).isEqualTo("+14155552671");
        XmlPath cxml = new XmlPath(call.getString("cxml"));
        String url = cxml.getString("Response.Connect.Stream.@url");
        assertThat(url).startsWith("ws://localhost:8081/api/v1/telephony/ws/").contains("/" + runId + "/");
        assertThat(call.getString("cxml")).as("the call ends with its stream").contains("<Hangup/>");
        String callback = call.getString("callback");
        assertThat(callback).contains("/api/v1/telephony/cloudonix/session-update/" + runId + "/");
        String token = FakeProviderServer.lastSid;

        given().contentType(ContentType.JSON).body(session(token, "ringing").encode())
                .post(path(callback).substring(0, path(callback).lastIndexOf('/') + 1) + "forged").then().statusCode(403);
        given().contentType(ContentType.JSON).body(session(token, "ringing").encode()).post(path(callback)).then()
                .statusCode(200).body("status", equalTo("applied: ringing"));
        given().contentType(ContentType.JSON).body(session(token, "connected").put("callAnswerTime",
                System.currentTimeMillis()).encode()).post(path(callback)).then().statusCode(200);

        SimulatedCaller caller = caller().connect(url);
        caller.pauses(1_600).says("Where is my order?").pauses(2_600).says("Tell me about returns.").pauses(2_900)
                .says("No that is all thanks.").pauses(1_000);
        String reason = caller.closed.get(40, TimeUnit.SECONDS);
        for (int i = 0; i < 30 && FakeProviderServer.REQUESTS.stream().noneMatch(r -> "DELETE".equals(r.method())
                && r.path().endsWith(token)); i++) {
            Thread.sleep(100);
        }
        assertThat(FakeProviderServer.REQUESTS).filteredOn(r -> "DELETE".equals(r.method()) && r.path().endsWith(token))
                .as("the agent hung up by deleting the session").singleElement()
                .satisfies(r -> assertThat(r.path()).isEqualTo("/customers/self/domains/" + DOMAIN + "/sessions/"
                        + token));

        JsonPath run = completedRun(runId);
        assertThat(reason).as("ended with %s", run.getString("gathered_context.error")).isEqualTo("end_call_node");
        assertThat(caller.violations).as("no mark was sent to Cloudonix").isEmpty();
        assertThat(caller.marksEchoed).isEmpty();
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(caller.agentFramesBetween(0, caller.speech.get(0)[0])).as("the greeting played").isGreaterThan(20);
        assertThat(caller.firstAgentFrameAfter(caller.speech.get(0)[1]) - caller.speech.get(0)[1])
                .as("voice-to-voice of the answer").isBetween(200L, 2_500L);
        assertThat(caller.clears).as("the barge-in cleared Cloudonix's audio").hasSize(1);
        assertThat(caller.clears.getFirst() - caller.speech.get(2)[0]).as("caller speech start to clear")
                .isBetween(50L, 900L);
        assertThat(caller.underruns).as("paced by the clock, the agent's audio never ran dry mid-sentence")
                .isLessThanOrEqualTo(2);
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme. How can I help you?\nuser: Where is my order?\n")
                .contains("user: Tell me about returns.\n").endsWith("assistant: Thank you, goodbye.\n");

    }

    @Test
    void aSessionThatRangOutEndsItsRunAsNoAnswerOnceAndAnotherSessionsNotificationChangesNothing() throws Exception {
        long runId = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        String callback = path(new JsonObject(FakeProviderServer.first("POST", "/calls/" + DOMAIN + "/application").body()).getString("callback"));
        String token = FakeProviderServer.lastSid;
        given().contentType(ContentType.JSON).body(session(token, "processing").encode()).post(callback).then()
                .statusCode(200).body("status", equalTo("ignored: status not tracked"));
        given().contentType(ContentType.JSON).body(session(token, "Ringing").encode()).post(callback).then()
                .statusCode(200).body("status", equalTo("applied: ringing"));
        given().contentType(ContentType.JSON).body(session("another-session", "busy").encode()).post(callback).then()
                .statusCode(200).body("status", equalTo("ignored: another session"));
        JsonObject rangOut = session(token, "noanswer");
        given().contentType(ContentType.JSON).body(rangOut.encode()).post(callback).then().statusCode(200)
                .body("status", equalTo("applied: no-answer"));
        given().contentType(ContentType.JSON).body(rangOut.encode()).post(callback).then().statusCode(200)
                .body("status", equalTo("duplicate"));
        JsonPath run = completedRun(runId);
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("no-answer");
    }

    @Test
    void anInboundCallIsAnsweredWithTheStreamOnlyWithTheDomainsKeyAndRefusedWithoutBilling() throws Exception {
        long config = as(key).get("/api/v1/organizations/telephony-configs").then().statusCode(200).extract()
                .jsonPath().getLong("configurations[0].id");
        as(key).body(Map.of("address", "+14155550177", "inbound_workflow_id", workflow))
                .post("/api/v1/organizations/telephony-configs/" + config + "/phone-numbers").then().statusCode(200);
        String request = new JsonObject().put("CallSid", "cs-" + UUID.randomUUID()).put("Session", "session-in-1")
                .put("From", "+447700900123").put("To", "+14155550177").put("Direction", "inbound")
                .put("Domain", DOMAIN).encode();
        given().contentType(ContentType.JSON).header("Authorization", "Bearer wrong").body(request)
                .post("/api/v1/telephony/inbound/run").then().statusCode(403);
        given().contentType(ContentType.JSON).header("Authorization", "Bearer " + KEY)
                .body(request.replace(DOMAIN, "other.cloudonix.net")).post("/api/v1/telephony/inbound/run").then()
                .statusCode(403);
        String xml = given().contentType(ContentType.JSON).header("Authorization", "Bearer " + KEY).body(request)
                .post("/api/v1/telephony/inbound/run").then().statusCode(200).extract().asString();
        assertThat(new XmlPath(xml).getString("Response.Connect.Stream.@url"))
                .startsWith("ws://localhost:8081/api/v1/telephony/ws/" + workflow + "/");
        String unknown = request.replace("+14155550177", "+19995550000");
        String refused = given().contentType(ContentType.JSON).header("Authorization", "Bearer " + KEY).body(unknown)
                .post("/api/v1/telephony/cloudonix/inbound").then().statusCode(200).extract().asString();
        assertThat(new XmlPath(refused).getString("Response.Reject.@reason")).isEqualTo("rejected");
        assertThat(FakeProviderServer.REQUESTS).as("answered by CXML alone")
                .noneMatch(r -> "POST".equals(r.method()));
    }

    @Test
    void anotherDomainsKeyIsRefusedByCloudonixAndTheCallFailsWithItsStatus() {
        FakeProviderServer.cloudonixKey = "XIanotherdomainskey";
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(400)
                .body("detail", org.hamcrest.Matchers.containsString("Cloudonix answered HTTP 401"));
    }
}
