package dev.voiceagent.deploy.e2e;

import static dev.voiceagent.deploy.support.VoiceAgents.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.adapters.telephony.plivo.PlivoSignature;
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
import io.restassured.path.json.JsonPath;
import io.restassured.path.xml.XmlPath;
import io.restassured.specification.RequestSpecification;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Plivo and Vobiz calls that talk, end to end: their Call API (a local stand-in that refuses what the real one would:
 * another account's credentials, a dial without its answer URL, numbers written with a plus) places the call with our
 * answer, ring and hang-up webhooks; the webhooks come signed as each carrier signs them (Plivo's V3 over the URL, the
 * sorted form and a nonce; Vobiz's over the URL and a nonce); the answer's XML streams the call to the signed media
 * address, where a simulated caller speaks Plivo's stream protocol (playAudio, checkpoint, clearAudio; playedStream and
 * clearedAudio back), with Deepgram's, OpenAI's and ElevenLabs' protocols spoken by local stand-ins.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
@WithTestResource(FakeVoiceProviders.class)
class PlivoVoiceCallEndToEndTest {

    private static final String AUTH_ID = "MAXXXXXXXXXXXXXXXXXX";
    private static final String TOKEN = "plivo-auth-token";

    @Inject
    Vertx vertx;

    private String key;
    private long workflow;
    private final List<SimulatedCaller> callers = new ArrayList<>();

    @BeforeEach
    void setUp() {
        FakeProviderServer.REQUESTS.clear();
        FakeProviderServer.status = 201;
        FakeVoiceProviders.reset();
        key = VoiceAgents.organization("plivo-voice");
        workflow = VoiceAgents.workflow(key, "Orders", VoiceCallEndToEndTest.definition());
    }

    @AfterEach
    void hangUp() {
        callers.forEach(SimulatedCaller::close);
    }

    private long configuration(String provider, String number) {
        long config = as(key).body(Map.of("name", provider, "config", Map.of("provider", provider, "auth_id",
                AUTH_ID, "auth_token", TOKEN))).post("/api/v1/organizations/telephony-configs").then().statusCode(200)
                .extract().jsonPath().getLong("id");
        as(key).body(Map.of("address", number, "inbound_workflow_id", workflow))
                .post("/api/v1/organizations/telephony-configs/" + config + "/phone-numbers").then().statusCode(200);
        as(key).get("/api/v1/organizations/telephony-configs/" + config).then().statusCode(200)
                .body("is_ready_for_outbound", equalTo(true));
        return config;
    }

    private SimulatedCaller caller() {
        SimulatedCaller caller = new SimulatedCaller(vertx, Carrier.PLIVO, "PCMU");
        callers.add(caller);
        return caller;
    }

    private static String form(Map<String, String> params) {
        return params.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }

    /** A webhook to {@code url} (the address the carrier was given), signed as {@code carrier} signs it. */
    private static RequestSpecification signed(String carrier, String url, Map<String, String> params) {
        String nonce = UUID.randomUUID().toString().replace("-", "");
        Map<String, List<String>> multi = new LinkedHashMap<>();
        params.forEach((k, v) -> multi.put(k, List.of(v)));
        RequestSpecification request = given().contentType("application/x-www-form-urlencoded; charset=UTF-8")
                .body(form(params));
        return "vobiz".equals(carrier)
                ? request.header("X-Vobiz-Signature-V3", PlivoSignature.vobiz(TOKEN, url, nonce, true))
                        .header("X-Vobiz-Signature-V3-Nonce", nonce).header("User-Agent", "Vobiz-Webhook")
                : request.header("X-Plivo-Signature-V3", PlivoSignature.plivo(TOKEN, url, multi, nonce))
                        .header("X-Plivo-Signature-V3-Nonce", nonce);
    }

    private static String path(String url) {
        return url.substring(url.indexOf("/api/v1/"));
    }

    private JsonPath completedRun(long runId) throws InterruptedException {
        return VoiceAgents.completedRun(key, workflow, runId);
    }

    private static List<FakeProviderServer.Received> requests(String method) {
        return FakeProviderServer.REQUESTS.stream().filter(r -> r.method().equals(method)).toList();
    }

    /**
     * Places a call on {@code carrier} and answers it as the carrier does: ringing, then the answer webhook (each
     * refused unsigned first); the dial's body and the media address of the answer's XML.
     */
    private Object[] placeAndAnswer(String carrier, String callUuid) {
        long runId = as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        FakeProviderServer.Received dial = FakeProviderServer.first("POST", "/Call/");
        String prefix = "vobiz".equals(carrier) ? "/api" : "";
        assertThat(dial.path()).isEqualTo(prefix + "/v1/Account/" + AUTH_ID + "/Call/");
        JsonPath body = new JsonPath(dial.body());
        assertThat(body.getString("to")).as("E.164 without the plus").isEqualTo("442071838750");
        assertThat(body.getString("answer_method")).isEqualTo("POST");
        String request = FakeProviderServer.lastSid;
        String ring = body.getString("ring_url");
        assertThat(ring).endsWith("/api/v1/telephony/" + carrier + "/ring-callback/" + runId);
        assertThat(body.getString("hangup_url")).endsWith("/api/v1/telephony/" + carrier + "/hangup-callback/" + runId);

        Map<String, String> ringing = Map.of("CallUUID", callUuid, "RequestUUID", request, "CallStatus", "ringing",
                "Direction", "outbound", "From", "14155552671", "To", "442071838750");
        given().contentType("application/x-www-form-urlencoded").body(form(ringing)).post(path(ring)).then()
                .statusCode(403);
        signed(carrier, ring, ringing).post(path(ring)).then().statusCode(200)
                .body("status", equalTo("applied: ringing"));

        String answer = body.getString("answer_url");
        Map<String, String> answered = Map.of("CallUUID", callUuid, "RequestUUID", request, "CallStatus",
                "in-progress", "Direction", "outbound", "From", "14155552671", "To", "442071838750");
        given().contentType("application/x-www-form-urlencoded").body(form(answered)).post(path(answer)).then()
                .statusCode(403);
        String xml = signed(carrier, answer, answered).post(path(answer)).then().statusCode(200)
                .contentType(containsString("xml")).extract().asString();
        XmlPath stream = new XmlPath(xml);
        assertThat(stream.getString("Response.Stream.@bidirectional")).isEqualTo("true");
        assertThat(stream.getString("Response.Stream.@contentType")).isEqualTo("audio/x-mulaw;rate=8000");
        String url = stream.getString("Response.Stream").strip();
        assertThat(url).startsWith("ws://localhost:8081/api/v1/telephony/ws/").contains("/" + runId + "/");
        return new Object[] {runId, body, url, request};
    }

    @Test
    void aPlivoCallRingsIsAnsweredTalksIsInterruptedAndTheAgentHangsUpByItsCallUuid() throws Exception {
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "Tell me about returns.",
                "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("Your order ships today. Is there anything else?"),
                new Reply(VoiceCallEndToEndTest.RETURNS + " " + VoiceCallEndToEndTest.REFUNDS, null, 60, null),
                Reply.calls("done"), Reply.says("Thank you, goodbye.")));
        configuration("plivo", "+14155552671");
        String callUuid = "c0ffee00-" + UUID.randomUUID().toString().substring(9);
        Object[] placed = placeAndAnswer("plivo", callUuid);
        long runId = (long) placed[0];
        FakeProviderServer.Received dial = FakeProviderServer.first("POST", "/Call/");
        assertThat(new String(Base64.getDecoder().decode(dial.authorization().substring(6)),
                StandardCharsets.UTF_8)).isEqualTo(AUTH_ID + ":" + TOKEN);

        SimulatedCaller caller = caller().connect((String) placed[2]);
        caller.pauses(1_600).says("Where is my order?").pauses(2_600).says("Tell me about returns.").pauses(2_900)
                .says("No that is all thanks.").pauses(1_000);
        String reason = caller.closed.get(40, TimeUnit.SECONDS);
        for (int i = 0; i < 30 && requests("DELETE").isEmpty(); i++) {
            Thread.sleep(100);
        }
        assertThat(requests("DELETE")).as("not by the dial's request id: the call is its CallUUID once it rang")
                .noneMatch(r -> r.path().contains((String) placed[3]));
        assertThat(requests("DELETE")).as("the agent hung up through the Call API, by the CallUUID")
                .filteredOn(r -> r.path().contains(callUuid)).singleElement().satisfies(r -> assertThat(r.path())
                        .isEqualTo("/v1/Account/" + AUTH_ID + "/Call/" + callUuid + "/"));
        String hangup = new JsonPath(dial.body()).getString("hangup_url");
        signed("plivo", hangup, Map.of("CallUUID", callUuid, "RequestUUID", "x", "CallStatus", "completed",
                "Duration", "11", "HangupCauseName", "Normal Hangup")).post(path(hangup)).then().statusCode(200);

        JsonPath run = completedRun(runId);
        assertThat(reason).as("ended with %s", run.getString("gathered_context.error")).isEqualTo("end_call_node");
        assertThat(caller.violations).isEmpty();
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(caller.agentFramesBetween(0, caller.speech.get(0)[0])).as("the greeting played").isGreaterThan(20);
        assertThat(caller.firstAgentFrameAfter(caller.speech.get(0)[1]) - caller.speech.get(0)[1])
                .as("voice-to-voice of the answer").isBetween(200L, 2_500L);
        assertThat(caller.marksEchoed).as("playedStream echoes of the checkpoints pace the playout").isNotEmpty();
        assertThat(caller.clears).as("the barge-in cleared Plivo's audio").hasSize(1);
        assertThat(caller.clears.getFirst() - caller.speech.get(2)[0]).as("caller speech start to clear")
                .isBetween(50L, 900L);
        assertThat(FakeVoiceProviders.TTS_TEXTS).doesNotContain(VoiceCallEndToEndTest.REFUNDS);

        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme. How can I help you?\nuser: Where is my order?\n")
                .contains("user: Tell me about returns.\n", "user: No that is all thanks.\n")
                .endsWith("assistant: Thank you, goodbye.\n");
        assertThat(Api.download(run.getString("recording_public_url")).length).as("a stereo recording of the call")
                .isGreaterThan(44 + 4 * 8000 * 5);
    }

    @Test
    void aVobizCallIsPlacedWithItsHeadersSignedItsWayAndEndsWhenTheCallerHangsUp() throws Exception {
        configuration("vobiz", "+14155552671");
        FakeVoiceProviders.CALLER_LINES.add("What are your opening hours?");
        FakeVoiceProviders.REPLIES.add(Reply.says("We are open from nine to five."));
        Object[] placed = placeAndAnswer("vobiz", "vobiz-call-" + UUID.randomUUID());
        long runId = (long) placed[0];
        FakeProviderServer.Received dial = FakeProviderServer.first("POST", "/Call/");
        assertThat(dial.xAuth()).isEqualTo(AUTH_ID + ":" + TOKEN);
        assertThat(dial.authorization()).as("Vobiz takes no Basic authentication").isNull();
        assertThat(new JsonPath(dial.body()).getString("machine_detection")).isNull();

        SimulatedCaller caller = caller().connect((String) placed[2]);
        caller.pauses(1_600).says("What are your opening hours?").pauses(3_000);
        for (int i = 0; i < 60 && !FakeVoiceProviders.TTS_TEXTS.contains("We are open from nine to five."); i++) {
            Thread.sleep(100);
        }
        Thread.sleep(1_500);
        caller.hangUp();

        JsonPath run = completedRun(runId);
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("user_hangup");
        assertThat(caller.violations).isEmpty();
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).contains("user: What are your opening hours?\n",
                "assistant: We are open from nine to five.\n");
    }

    @Test
    void inboundPlivoAndVobizCallsAreAnsweredWithTheirStreamOnlyWhenSignedByTheNumbersAccount() throws Exception {
        configuration("plivo", "+14155550100");
        configuration("vobiz", "+14155550101");
        for (String carrier : List.of("plivo", "vobiz")) {
            String number = "plivo".equals(carrier) ? "14155550100" : "14155550101";
            Map<String, String> call = Map.of("CallUUID", carrier + "-in-" + UUID.randomUUID(), "From", "447700900123",
                    "To", number, "Direction", "inbound", "CallStatus", "ringing");
            String url = "http://localhost:8081/api/v1/telephony/inbound/run";
            String forged = form(call);
            given().contentType("application/x-www-form-urlencoded").header(carrier.equals("plivo")
                            ? "X-Plivo-Signature-V3" : "X-Vobiz-Signature-V3", "forged=")
                    .header(carrier.equals("plivo") ? "X-Plivo-Signature-V3-Nonce" : "X-Vobiz-Signature-V3-Nonce", "n")
                    .body(forged).post("/api/v1/telephony/inbound/run").then().statusCode(403);
            String xml = signed(carrier, url, call).post("/api/v1/telephony/inbound/run").then().statusCode(200)
                    .extract().asString();
            String stream = new XmlPath(xml).getString("Response.Stream").strip();
            assertThat(stream).as(carrier).startsWith("ws://localhost:8081/api/v1/telephony/ws/" + workflow + "/");
            // its own address too, and a number of no organization is hung up on
            String own = "http://localhost:8081/api/v1/telephony/" + carrier + "/inbound";
            Map<String, String> unknown = new LinkedHashMap<>(call);
            unknown.put("To", "19995550000");
            unknown.put("CallUUID", carrier + "-unknown");
            String hangup = signed(carrier, own, unknown).post("/api/v1/telephony/" + carrier + "/inbound").then()
                    .statusCode(200).extract().asString();
            assertThat(new XmlPath(hangup).getString("Response.Hangup.@reason")).isEqualTo("rejected");
        }
        assertThat(FakeProviderServer.REQUESTS).as("answered by XML alone: no API call")
                .noneMatch(r -> r.path().endsWith("/Call/") && "POST".equals(r.method()));
    }

    @Test
    void aTransferMovesTheCallersLegToADialOfTheDestinationAtTheSignedAddress() throws Exception {
        configuration("plivo", "+14155552671");
        Map<String, Object> tool = Map.of("schema_version", 1, "type", "transfer_call", "config", Map.of(
                "destination", "+15550001111", "messageType", "custom", "customMessage", "Connecting you now.",
                "timeout", 25));
        String sales = as(key).body(Map.of("name", "Sales desk", "category", "transfer_call", "definition", tool))
                .post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");
        Map<String, Object> definition = VoiceCallEndToEndTest.definitionWithTools(List.of(sales));
        workflow = as(key).body(Map.of("name", "Transfers", "workflow_definition", definition))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        FakeVoiceProviders.CALLER_LINES.add("Put me through to sales.");
        FakeVoiceProviders.REPLIES.add(Reply.calls("sales_desk"));
        String callUuid = "transfer-" + UUID.randomUUID();
        Object[] placed = placeAndAnswer("plivo", callUuid);
        long runId = (long) placed[0];
        SimulatedCaller caller = caller().connect((String) placed[2]);
        caller.pauses(1_600).says("Put me through to sales.").pauses(4_000);

        JsonPath run = completedRun(runId);
        for (int i = 0; i < 50 && requests("POST").stream().noneMatch(r -> r.path().contains(callUuid)); i++) {
            Thread.sleep(100);
        }
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("transfer_call");
        assertThat(FakeVoiceProviders.TTS_TEXTS).contains("Connecting you now.");
        FakeProviderServer.Received move = FakeProviderServer.first("POST", "/Call/" + callUuid + "/");
        assertThat(move.path()).isEqualTo("/v1/Account/" + AUTH_ID + "/Call/" + callUuid + "/");
        JsonPath moved = new JsonPath(move.body());
        assertThat(moved.getString("legs")).isEqualTo("aleg");
        assertThat(moved.getString("aleg_method")).isEqualTo("POST");
        String dialAt = moved.getString("aleg_url");
        assertThat(requests("DELETE")).as("a transferred call is not hung up")
                .noneMatch(r -> r.path().contains(callUuid));

        String relative = dialAt.substring(dialAt.indexOf("/api/v1/"));
        given().contentType("application/x-www-form-urlencoded").body("CallUUID=" + callUuid).urlEncodingEnabled(false)
                .post(relative).then().statusCode(403);
        String xml = signed("plivo", dialAt, Map.of("CallUUID", callUuid)).urlEncodingEnabled(false).post(relative)
                .then().statusCode(200).extract().asString();
        XmlPath dial = new XmlPath(xml);
        assertThat(dial.getString("Response.Dial.Number")).isEqualTo("15550001111");
        assertThat(dial.getInt("Response.Dial.@timeout")).isEqualTo(25);
        // the destination is this service's to say: another one in the same address is refused
        String tampered = relative.replace("to=%2B15550001111", "to=%2B19005550000");
        signed("plivo", dialAt.replace("to=%2B15550001111", "to=%2B19005550000"), Map.of("CallUUID", callUuid))
                .urlEncodingEnabled(false).post(tampered).then().statusCode(403);
    }

    @Test
    void plivosMachineDetectionIsAskedForAWorkflowThatDetectsVoicemailAndItsVerdictIsSigned() {
        configuration("plivo", "+14155552671");
        as(key).body(Map.of("workflow_configurations", Map.of("voicemail_detection", Map.of("enabled", true,
                "action", "hang_up")))).put("/api/v1/workflow/" + workflow).then().statusCode(200);
        Object[] placed = placeAndAnswer("plivo", "amd-" + UUID.randomUUID());
        JsonPath dial = (JsonPath) placed[1];
        assertThat(dial.getString("machine_detection")).isEqualTo("true");
        String url = dial.getString("machine_detection_url");
        assertThat(url).endsWith("/api/v1/telephony/plivo/machine-detection/" + placed[0]);
        Map<String, String> verdict = Map.of("CallUUID", "x", "Machine", "true");
        given().contentType("application/x-www-form-urlencoded").body(form(verdict)).post(path(url)).then()
                .statusCode(403);
        signed("plivo", url, verdict).post(path(url)).then().statusCode(200)
                .body("status", equalTo("answering machine detection: machine"));
    }

    @Test
    void aRefusalByTheCarrierFailsTheCallWithItsStatusAndAForgedTransferAddressIsRefused() throws Exception {
        configuration("plivo", "+14155552671");
        FakeProviderServer.status = 401;
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "+442071838750"))
                .post("/api/v1/telephony/initiate-call").then().statusCode(400)
                .body("detail", containsString("Plivo answered HTTP 401"));
        long runId = as(key).get("/api/v1/workflow/" + workflow + "/runs").then().statusCode(200)
                .body("runs[0].is_completed", equalTo(true)).extract().jsonPath().getLong("runs[0].id");
        FakeProviderServer.status = 201;
        // the transfer's XML: only for the address this service signed, and only with the carrier's signature
        String base = "http://localhost:8081/api/v1/telephony/plivo/transfer/" + runId
                + "?to=%2B15550001111&timeout=20&sig=bad";
        signed("plivo", base, Map.of("CallUUID", "c")).urlEncodingEnabled(false).post(path(base)).then()
                .statusCode(403);
        // a run of no Plivo call (none, or another organization's) is not found, whatever the address says
        String unknown = base.replace("/transfer/" + runId, "/transfer/" + (runId + 100_000));
        signed("plivo", unknown, Map.of("CallUUID", "c")).urlEncodingEnabled(false).post(path(unknown)).then()
                .statusCode(404);
    }
}
