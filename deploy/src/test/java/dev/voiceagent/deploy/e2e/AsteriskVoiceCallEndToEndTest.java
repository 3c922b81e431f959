package dev.voiceagent.deploy.e2e;

import static dev.voiceagent.deploy.support.VoiceAgents.as;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeAsterisk;
import dev.voiceagent.deploy.support.FakeVicidial;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.deploy.support.SimulatedCaller.Carrier;
import dev.voiceagent.deploy.support.VoiceAgents;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Asterisk calls that talk, end to end, controlled through ARI: a local stand-in for an Asterisk (its REST interface
 * and its events WebSocket, which takes only the ARI user's credentials and refuses what Asterisk would) is the
 * configuration's endpoint; this service holds its events, originates calls into the Stasis application, creates the
 * externalMedia channel whose websocket_client.conf connection dials the media route with the run's ids and token, and
 * bridges both once they are in the application; a simulated chan_websocket client speaks the media. Outcomes come from
 * ChannelDestroyed causes; calls in arrive as ringing channels entering the application.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeVoiceProviders.class)
class AsteriskVoiceCallEndToEndTest {

    private static final String USER = "agents";
    private static final String PASSWORD = "s3cret&#+x";
    private static final String WS_CLIENT = "voiceagent";

    @Inject
    Vertx vertx;

    @Inject
    AgroalDataSource dataSource;

    private String key;
    private long workflow;
    private long configuration;
    private FakeAsterisk pbx;
    private final List<SimulatedCaller> callers = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        FakeVoiceProviders.reset();
        pbx = new FakeAsterisk(vertx, USER, PASSWORD, WS_CLIENT);
        key = VoiceAgents.organization("asterisk-voice");
        workflow = VoiceAgents.workflow(key, "Orders", VoiceCallEndToEndTest.definition());
        configuration = as(key).body(Map.of("name", "PBX", "config", Map.of("provider", "ari", "ari_endpoint",
                        pbx.endpoint(), "app_name", USER, "app_password", PASSWORD, "ws_client_name", WS_CLIENT)))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200).extract().jsonPath()
                .getLong("id");
        as(key).body(Map.of("address", "1001", "inbound_workflow_id", workflow))
                .post("/api/v1/organizations/telephony-configs/" + configuration + "/phone-numbers").then()
                .statusCode(200);
        pbx.listening.get(15, TimeUnit.SECONDS); // a replica holds the configuration's events
    }

    @AfterEach
    void tearDown() {
        callers.forEach(SimulatedCaller::close);
        // the configuration goes, and with it the events stream this service held
        as(key).delete("/api/v1/organizations/telephony-configs/" + configuration);
        pbx.close();
    }

    /** Asterisk's websocket client connects: the connection's URI with transport_data's variables as its query. */
    private SimulatedCaller connectMedia(Map<String, String> media) throws Exception {
        SimulatedCaller caller = new SimulatedCaller(vertx, Carrier.ASTERISK, "PCMU");
        callers.add(caller);
        caller.connect("ws://localhost:8081/api/v1/telephony/ws/ari?workflow_id=" + media.get("workflow_id")
                + "&organization_id=" + media.get("organization_id") + "&workflow_run_id="
                + media.get("workflow_run_id") + "&token=" + media.get("token"));
        return caller;
    }

    private long dial(String number) {
        return as(key).body(Map.of("workflow_id", workflow, "phone_number", number))
                .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
    }

    /** The sum of the scraped samples of {@code name} whose labels include {@code label} (the Prometheus text). */
    private static double metric(String name, String label) {
        String text = io.restassured.RestAssured.given().get("/q/metrics").then().statusCode(200).extract().asString();
        return text.lines().filter(l -> l.startsWith(name + "{") && l.contains(label))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    @Test
    void aDialledCallIsBridgedToItsMediaTalksIsInterruptedAndEndsEveryLegWhenTheAgentHangsUp() throws Exception {
        Map<String, Double> stagesBefore = new java.util.HashMap<>();
        for (String stage : List.of("stt_final", "end_of_turn", "llm_first_token", "tts_first_byte")) {
            stagesBefore.put(stage, metric("voiceagent_voice_stage_seconds_count", "stage=\"" + stage + "\""));
        }
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "Tell me about returns.",
                "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("Your order ships today. Is there anything else?"),
                new Reply(VoiceCallEndToEndTest.RETURNS + " " + VoiceCallEndToEndTest.REFUNDS, null, 60, null),
                Reply.calls("done"), Reply.says("Thank you, goodbye.")));
        long runId = dial("2002");
        FakeAsterisk.Request originate = pbx.await("POST", "/ari/channels");
        assertThat(originate.query()).containsEntry("endpoint", "PJSIP/2002").containsEntry("app", USER)
                .containsEntry("callerId", "1001").containsEntry("appArgs", "workflow_run_id=" + runId
                        + ",workflow_id=" + workflow + ",organization_id=" + organization(runId));
        String channel = originate.query().get("channelId");
        assertThat(channel).startsWith("va-" + runId + "-");
        as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(200);

        pbx.answer(channel);
        Map<String, String> media = pbx.mediaChannels.poll(10, TimeUnit.SECONDS);
        assertThat(media).as("an externalMedia channel for the answered call").isNotNull()
                .containsEntry("workflow_run_id", String.valueOf(runId))
                .containsEntry("workflow_id", String.valueOf(workflow));
        SimulatedCaller caller = connectMedia(media);
        FakeAsterisk.Request added = pbx.await("POST", "/ari/bridges/va-bridge-" + runId + "/addChannel");
        assertThat(added.query().get("channel")).isEqualTo(channel + "," + media.get("channel_id"));

        caller.pauses(1_600).says("Where is my order?").pauses(2_600);
        for (int i = 0; i < 50 && metric("voiceagent_voice_calls_live", "mode=\"ari\"") < 1; i++) {
            Thread.sleep(100);
        }
        assertThat(metric("voiceagent_voice_calls_live", "mode=\"ari\"")).as("live on this replica, as an ARI call")
                .isEqualTo(1);
        caller.says("Tell me about returns.").pauses(2_900).says("No that is all thanks.").pauses(1_000);
        caller.closed.get(40, TimeUnit.SECONDS);
        pbx.hangUp(media.get("channel_id")); // chan_websocket's channel ends with its socket

        JsonPath run = VoiceAgents.completedRun(key, workflow, runId);
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("end_call_node");
        assertThat(caller.hungUpByAgent).as("the agent hung up with chan_websocket's HANGUP").isTrue();
        assertThat(caller.clears).as("the barge-in flushed Asterisk's queue").hasSize(1);
        assertThat(caller.violations).isEmpty();
        assertThat(pbx.violations).isEmpty();
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme. How can I help you?\nuser: Where is my order?\n")
                .endsWith("assistant: Thank you, goodbye.\n");
        assertThat(Api.download(run.getString("recording_public_url")).length).as("a stereo recording of the call")
                .isGreaterThan(44 + 2 * 2 * 8000 * 5);
        for (int i = 0; i < 50 && (pbx.exists(channel) || pbx.bridge("va-bridge-" + runId) != null); i++) {
            Thread.sleep(100);
        }
        assertThat(pbx.exists(channel)).as("the dialled leg was hung up").isFalse();
        assertThat(pbx.bridge("va-bridge-" + runId)).as("the bridge destroyed").isNull();
        // every answer's stages measured (three answers: the goodbye follows the end call's tool)
        stagesBefore.forEach((stage, before) -> assertThat(metric("voiceagent_voice_stage_seconds_count",
                "stage=\"" + stage + "\"") - before).as(stage).isGreaterThanOrEqualTo(2));
        assertThat(metric("voiceagent_voice_calls_live", "mode=\"ari\"")).as("the call is over").isZero();
    }

    private long organization(long runId) {
        return new Sql(dataSource).queryLong("SELECT organization_id FROM workflow_runs WHERE id = ?", runId);
    }

    @Test
    void aBusyCallEndsItsRunAsBusyFromItsHangUpCause() throws Exception {
        long runId = dial("2003");
        String channel = pbx.await("POST", "/ari/channels").query().get("channelId");
        pbx.unanswered(channel, 17);
        JsonPath run = VoiceAgents.completedRun(key, workflow, runId);
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("busy");
        assertThat(pbx.mediaChannels).as("no media for a call never answered").isEmpty();
    }

    @Test
    void aCallInIsAnsweredAndTalksAndAnUnknownExtensionIsRefusedAsUnallocated() throws Exception {
        String unknown = pbx.callIn("9999", "5550100");
        FakeAsterisk.Request refused = pbx.await("DELETE", "/ari/channels/" + unknown);
        assertThat(refused.query()).containsEntry("reason", "unallocated");

        String incoming = pbx.callIn("1001", "5550123");
        pbx.await("POST", "/ari/channels/" + incoming + "/answer");
        Map<String, String> media = pbx.mediaChannels.poll(10, TimeUnit.SECONDS);
        assertThat(media).isNotNull().containsEntry("workflow_id", String.valueOf(workflow));
        long runId = Long.parseLong(media.get("workflow_run_id"));
        SimulatedCaller caller = connectMedia(media);
        pbx.await("POST", "/ari/bridges/va-bridge-" + runId + "/addChannel");
        caller.pauses(3_000);
        for (int i = 0; i < 100 && !caller.scriptPlayed(); i++) {
            Thread.sleep(100);
        }
        pbx.hangUp(incoming); // the caller hangs up
        FakeAsterisk.Request mediaGone = pbx.await("DELETE", "/ari/channels/" + media.get("channel_id"));
        assertThat(mediaGone).as("the media channel ended with the call").isNotNull();
        caller.close(); // Asterisk closes the media socket with its channel

        JsonPath run = VoiceAgents.completedRun(key, workflow, runId);
        assertThat(run.getString("initial_context.direction")).isEqualTo("inbound");
        assertThat(run.getString("initial_context.caller_number")).isEqualTo("5550123");
        assertThat(caller.agentFramesBetween(0, Long.MAX_VALUE)).as("the greeting played").isGreaterThan(20);
    }

    @Test
    void anEventNamingARunOfAnotherOrganizationGetsNoMedia() throws Exception {
        String otherKey = VoiceAgents.organization("asterisk-other");
        long otherWorkflow = VoiceAgents.workflow(otherKey, "Other", VoiceCallEndToEndTest.definition());
        long otherRun = as(otherKey).body(Map.of("mode", "ari", "name", "Theirs")).post("/api/v1/workflow/"
                + otherWorkflow + "/runs").then().statusCode(200).extract().jsonPath().getLong("id");
        long otherOrganization = organization(otherRun);
        String forged = "va-" + otherRun + "-0123456789ab";
        pbx.send(new JsonObject().put("type", "StasisStart").put("args", new JsonArray().add("workflow_run_id="
                + otherRun).add("workflow_id=" + otherWorkflow).add("organization_id=" + otherOrganization))
                .put("channel", new JsonObject().put("id", forged).put("state", "Up")));
        assertThat(pbx.await("DELETE", "/ari/channels/" + forged)).as("hung up").isNotNull();
        assertThat(pbx.mediaChannels).as("no media address handed out for another organization's run").isEmpty();
        assertThat(pbx.requests).noneMatch(r -> r.path().equals("/ari/channels/externalMedia"));
    }

    /** A call of a workflow whose agent transfers to sales, answered and bridged: its run, channel and media. */
    private Object[] transferringCall() throws Exception {
        Map<String, Object> tool = Map.of("schema_version", 1, "type", "transfer_call", "config", Map.of(
                "destination", "+15550001111", "messageType", "custom", "customMessage", "Connecting you now.",
                "timeout", 25));
        String sales = as(key).body(Map.of("name", "Sales desk", "category", "transfer_call", "definition", tool))
                .post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");
        workflow = VoiceAgents.workflow(key, "Transfers", VoiceCallEndToEndTest.definitionWithTools(List.of(sales)));
        FakeVoiceProviders.CALLER_LINES.add("Put me through to sales.");
        FakeVoiceProviders.REPLIES.add(Reply.calls("sales_desk"));
        long runId = dial("2004");
        String channel = pbx.await("POST", "/ari/channels").query().get("channelId");
        pbx.answer(channel);
        Map<String, String> media = pbx.mediaChannels.poll(10, TimeUnit.SECONDS);
        SimulatedCaller caller = connectMedia(media);
        pbx.await("POST", "/ari/bridges/va-bridge-" + runId + "/addChannel");
        caller.pauses(1_600).says("Put me through to sales.").pauses(4_000);
        caller.closed.get(30, TimeUnit.SECONDS); // the media ends once the destination rings
        pbx.hangUp(media.get("channel_id"));
        FakeAsterisk.Request ring = null;
        for (FakeAsterisk.Request r : pbx.requests) {
            if (r.method().equals("POST") && r.path().equals("/ari/channels")
                    && r.query().getOrDefault("channelId", "").startsWith("va-xfer-")) {
                ring = r;
            }
        }
        assertThat(ring).as("the destination rung into the application").isNotNull();
        assertThat(ring.query()).containsEntry("endpoint", "PJSIP/+15550001111").containsEntry("timeout", "25")
                .containsEntry("appArgs", "transfer," + runId).containsEntry("app", USER);
        return new Object[] {runId, channel, ring.query().get("channelId")};
    }

    @Test
    void aTransferBridgesTheDestinationWithTheCallerInPlaceOfTheMedia() throws Exception {
        Object[] call = transferringCall();
        long runId = (long) call[0];
        String channel = (String) call[1];
        String destination = (String) call[2];
        JsonPath run = VoiceAgents.completedRun(key, workflow, runId);
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("transfer_call");
        assertThat(FakeVoiceProviders.TTS_TEXTS).contains("Connecting you now.");
        Thread.sleep(600);
        assertThat(pbx.exists(channel)).as("the caller waits while the destination rings").isTrue();

        pbx.answer(destination);
        for (int i = 0; i < 50 && !List.of(channel, destination).equals(pbx.bridge("va-bridge-" + runId)); i++) {
            Thread.sleep(100);
        }
        assertThat(pbx.bridge("va-bridge-" + runId)).as("caller and destination bridged")
                .containsExactly(channel, destination);
        pbx.hangUp(channel); // the caller hangs up on the person: the destination's leg ends too
        for (int i = 0; i < 50 && pbx.exists(destination); i++) {
            Thread.sleep(100);
        }
        assertThat(pbx.exists(destination)).isFalse();
        assertThat(pbx.violations).isEmpty();
    }

    @Test
    void aTransferNobodyAnswersHangsTheCallerUp() throws Exception {
        Object[] call = transferringCall();
        String channel = (String) call[1];
        pbx.unanswered((String) call[2], 19);
        for (int i = 0; i < 50 && pbx.exists(channel); i++) {
            Thread.sleep(100);
        }
        assertThat(pbx.exists(channel)).as("no one to talk to: the caller is hung up").isFalse();
    }

    @Test
    void aDialThroughAnEndpointThatRefusesTheUserOrIsNotAllowedFailsWithWhy() {
        as(key).body(Map.of("config", Map.of("provider", "ari", "ari_endpoint", pbx.endpoint(), "app_name", USER,
                        "app_password", "wrong", "ws_client_name", WS_CLIENT)))
                .put("/api/v1/organizations/telephony-configs/" + configuration).then().statusCode(200);
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "2002")).post("/api/v1/telephony/initiate-call")
                .then().statusCode(400).body("detail", org.hamcrest.Matchers.containsString("Asterisk answered HTTP 401"));
        as(key).body(Map.of("config", Map.of("provider", "ari", "ari_endpoint", "http://10.20.30.40:8088", "app_name",
                        USER, "app_password", PASSWORD, "ws_client_name", WS_CLIENT)))
                .put("/api/v1/organizations/telephony-configs/" + configuration).then().statusCode(200);
        as(key).body(Map.of("workflow_id", workflow, "phone_number", "2002")).post("/api/v1/telephony/initiate-call")
                .then().statusCode(400).body("detail", org.hamcrest.Matchers.containsString("not an allowed address"));
    }

    @Test
    void theEventsStreamIsOpenedAgainWhenAsteriskClosesIt() throws Exception {
        CompletableFuture<Void> again = pbx.nextListener();
        pbx.dropEvents();
        again.get(10, TimeUnit.SECONDS);
        long runId = dial("2005");
        String channel = pbx.await("POST", "/ari/channels").query().get("channelId");
        pbx.answer(channel);
        assertThat(pbx.mediaChannels.poll(10, TimeUnit.SECONDS)).as("the new stream drives the calls (%s)",
                        pbx.violations)
                .containsEntry("workflow_run_id", String.valueOf(runId));
    }

    private static final Map<String, String> VICIDIAL_HEADERS = Map.of("X-VICIDIAL-callerid", "V1129093015000012345",
            "X-VICIDIAL-user", "agent7", "X-VICIDIAL-lead_id", "12345", "X-VICIDIAL-campaign_id", "SALES",
            "X-VICIDIAL-ingroup_id", "SUPPORT", "X-VICIDIAL-first_name", "Ada");

    /** The PBX's calls come through a VICIdial; the workflow reads a lead header and maps a value back. */
    private void throughVicidial(FakeVicidial vici) throws Exception {
        CompletableFuture<Void> reopened = pbx.nextListener(); // the events stream follows the edit
        Map<String, Object> external = Map.of("type", "vicidial", "agent_api", Map.of("url", vici.base()
                + "/agc/api.php", "username", "vdapi", "password", "vd-secret-1"), "non_agent_api", Map.of("url",
                vici.base() + "/vicidial/non_agent_api.php", "username", "vdapi", "password", "vd-secret-2"),
                "timeout_seconds", 5);
        as(key).body(Map.of("config", Map.of("provider", "ari", "ari_endpoint", pbx.endpoint(), "app_name", USER,
                "app_password", PASSWORD, "ws_client_name", WS_CLIENT, "external_pbx", external)))
                .put("/api/v1/organizations/telephony-configs/" + configuration).then().statusCode(200)
                .body("config.external_pbx.agent_api.password", org.hamcrest.Matchers.not("vd-secret-1"))
                .body("config.external_pbx.agent_api.password", org.hamcrest.Matchers.endsWith("et-1"));
        // the dashboard sends the configuration back as shown: the masked passwords keep the stored ones
        Map<String, Object> shown = as(key).get("/api/v1/organizations/telephony-configs/" + configuration).then()
                .statusCode(200).extract().jsonPath().getMap("config");
        as(key).body(Map.of("config", shown)).put("/api/v1/organizations/telephony-configs/" + configuration).then()
                .statusCode(200);
        as(key).body(Map.of("workflow_configurations", Map.of("external_pbx_lead_headers", List.of("first_name"),
                "external_pbx_field_mappings", List.of(Map.of("context_path", "gathered_context.call_disposition",
                        "destination_field", "ai_outcome"), Map.of("context_path", "not_gathered",
                        "destination_field", "ignored"))))).put("/api/v1/workflow/" + workflow).then().statusCode(200);
        as(key).post("/api/v1/workflow/" + workflow + "/publish").then().statusCode(200);
        reopened.get(10, TimeUnit.SECONDS);
    }

    @Test
    void aCallFromVicidialCarriesItsLeadAndVicidialIsToldTheOutcomeAndToHangUpOnlyWhenTheOrganizationTurnedItOn()
            throws Exception {
        try (FakeVicidial vici = new FakeVicidial(vertx, "vdapi", "vd-secret-1", "vd-secret-2")) {
            throughVicidial(vici);
            // integrations off (the organization's preference): the headers are not read, VICIdial is not told
            String first = pbx.callIn("1001", "5550123", VICIDIAL_HEADERS);
            Map<String, String> media = pbx.mediaChannels.poll(10, TimeUnit.SECONDS);
            long firstRun = Long.parseLong(media.get("workflow_run_id"));
            SimulatedCaller caller = connectMedia(media);
            pbx.hangUp(first);
            caller.close();
            assertThat(VoiceAgents.completedRun(key, workflow, firstRun).getMap("initial_context"))
                    .doesNotContainKey("external_pbx_call");
            assertThat(pbx.requests).noneMatch(r -> r.path().endsWith("/variable"));

            as(key).body(Map.of("external_pbx_integrations_enabled", true)).put("/api/v1/organizations/preferences")
                    .then().statusCode(200);
            String incoming = pbx.callIn("1001", "5550123", VICIDIAL_HEADERS);
            media = pbx.mediaChannels.poll(10, TimeUnit.SECONDS);
            long runId = Long.parseLong(media.get("workflow_run_id"));
            caller = connectMedia(media);
            caller.pauses(2_000);
            for (int i = 0; i < 50 && !caller.scriptPlayed(); i++) {
                Thread.sleep(100);
            }
            pbx.hangUp(incoming);
            caller.close();
            JsonPath run = VoiceAgents.completedRun(key, workflow, runId);
            assertThat(run.getString("initial_context.external_pbx_call.type")).isEqualTo("vicidial");
            assertThat(run.getString("initial_context.external_pbx_call.agent_user")).isEqualTo("agent7");
            assertThat(run.getString("initial_context.external_pbx_call.lead.first_name")).as("a lead header the"
                    + " workflow asked for").isEqualTo("Ada");
            for (int i = 0; i < 50 && vici.agentCalls.isEmpty(); i++) {
                Thread.sleep(100);
            }
            // read again once VICIdial was told: the carrier's hang-up can complete the run before the session's
            // finish writes what the call gathered (the lead update goes out after that write)
            JsonPath finished = VoiceAgents.completedRun(key, workflow, runId);
            assertThat(vici.leadUpdates).singleElement().satisfies(update -> assertThat(update)
                    .containsEntry("function", "update_lead").containsEntry("lead_id", "12345")
                    .containsEntry("pass", "vd-secret-2").containsEntry("custom_fields", "Y")
                    .containsEntry("ai_outcome", finished.getString("gathered_context.call_disposition"))
                    .doesNotContainKey("ignored"));
            assertThat(vici.agentCalls).singleElement().satisfies(call -> assertThat(call)
                    .containsEntry("function", "ra_call_control").containsEntry("stage", "HANGUP")
                    .containsEntry("value", "V1129093015000012345").containsEntry("agent_user", "agent7")
                    .containsEntry("source", "voiceagent"));
        }
    }

    @Test
    void aCallFromVicidialIsTransferredByVicidialToTheInGroupItCameFrom() throws Exception {
        try (FakeVicidial vici = new FakeVicidial(vertx, "vdapi", "vd-secret-1", "vd-secret-2")) {
            throughVicidial(vici);
            as(key).body(Map.of("external_pbx_integrations_enabled", true)).put("/api/v1/organizations/preferences")
                    .then().statusCode(200);
            Map<String, Object> tool = Map.of("schema_version", 1, "type", "transfer_call", "config", Map.of(
                    "destination", "source", "messageType", "custom", "customMessage", "Connecting you now.",
                    "timeout", 25));
            String sales = as(key).body(Map.of("name", "Sales desk", "category", "transfer_call", "definition",
                    tool)).post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");
            as(key).body(Map.of("workflow_definition", VoiceCallEndToEndTest.definitionWithTools(List.of(sales))))
                    .put("/api/v1/workflow/" + workflow).then().statusCode(200);
            as(key).post("/api/v1/workflow/" + workflow + "/publish").then().statusCode(200);
            FakeVoiceProviders.CALLER_LINES.add("Put me through to sales.");
            FakeVoiceProviders.REPLIES.add(Reply.calls("sales_desk"));
            String incoming = pbx.callIn("1001", "5550123", VICIDIAL_HEADERS);
            Map<String, String> media = pbx.mediaChannels.poll(10, TimeUnit.SECONDS);
            long runId = Long.parseLong(media.get("workflow_run_id"));
            SimulatedCaller caller = connectMedia(media);
            pbx.await("POST", "/ari/bridges/va-bridge-" + runId + "/addChannel");
            caller.pauses(1_600).says("Put me through to sales.").pauses(4_000);
            caller.closed.get(30, TimeUnit.SECONDS);
            JsonPath run = VoiceAgents.completedRun(key, workflow, runId);
            assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("transfer_call");
            assertThat(vici.agentCalls).singleElement().satisfies(call -> assertThat(call)
                    .containsEntry("stage", "INGROUPTRANSFER").containsEntry("ingroup_choices", "SUPPORT")
                    .containsEntry("value", "V1129093015000012345"));
            assertThat(vici.leadUpdates).singleElement().satisfies(update -> assertThat(update)
                    .containsEntry("ai_outcome", "transfer_call"));
            assertThat(pbx.requests).as("VICIdial transfers the call: nothing rung here")
                    .noneMatch(r -> r.query().getOrDefault("channelId", "").startsWith("va-xfer-"));
            pbx.hangUp(media.get("channel_id")); // the media socket closed: its channel ends
            pbx.await("DELETE", "/ari/channels/" + incoming); // and this service's leg of VICIdial's call with it
        }
    }
}
