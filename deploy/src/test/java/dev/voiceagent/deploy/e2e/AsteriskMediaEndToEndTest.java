package dev.voiceagent.deploy.e2e;

import static dev.voiceagent.deploy.support.VoiceAgents.as;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.call.VoiceRuntime;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.deploy.support.SimulatedCaller.Carrier;
import dev.voiceagent.deploy.support.Sql;
import dev.voiceagent.deploy.support.VoiceAgents;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.vertx.core.Vertx;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * An Asterisk call's media, end to end: Asterisk's externalMedia channel connects to the media route's Asterisk
 * address (its websocket_client.conf URI, the run's ids and token in the query as {@code transport_data=v(...)} puts
 * them, subprotocol {@code media}) and speaks chan_websocket (MEDIA_START, binary μ-law; MARK_MEDIA answered by
 * MEDIA_MARK_PROCESSED, FLUSH_MEDIA, HANGUP) with a call that greets, answers, is interrupted and hangs up. ARI's own
 * control of the call (originate, the bridge, the channel's events) is not built: this is its media.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeVoiceProviders.class)
class AsteriskMediaEndToEndTest {

    @Inject
    Vertx vertx;

    @Inject
    VoiceRuntime runtime;

    @Inject
    AgroalDataSource dataSource;

    private String key;
    private long workflow;
    private long organization;
    private final List<SimulatedCaller> callers = new ArrayList<>();

    @BeforeEach
    void setUp() {
        FakeVoiceProviders.reset();
        key = VoiceAgents.organization("asterisk-media");
        workflow = VoiceAgents.workflow(key, "Orders", VoiceCallEndToEndTest.definition());
    }

    @AfterEach
    void close() {
        callers.forEach(SimulatedCaller::close);
    }

    /** The Asterisk address of a run: the query Asterisk appends from transport_data=v(...). */
    private String address(long runId, String token) {
        return "ws://localhost:8081/api/v1/telephony/ws/ari?workflow_id=" + workflow + "&organization_id="
                + organization + "&workflow_run_id=" + runId + "&token=" + token;
    }

    private String token(long runId) {
        String url = runtime.streamUrl(organization, workflow, runId).orElseThrow();
        return url.substring(url.lastIndexOf('/') + 1);
    }

    @Test
    void anAsteriskCallTalksOnChanWebsocketIsInterruptedByFlushAndTheAgentHangsUpWithHangup() throws Exception {
        FakeVoiceProviders.CALLER_LINES.addAll(List.of("Where is my order?", "Tell me about returns.",
                "No that is all thanks."));
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says("Your order ships today. Is there anything else?"),
                new Reply(VoiceCallEndToEndTest.RETURNS + " " + VoiceCallEndToEndTest.REFUNDS, null, 60, null),
                Reply.calls("done"), Reply.says("Thank you, goodbye.")));
        long runId = as(key).body(Map.of("mode", "ari", "name", "ARI call")).post("/api/v1/workflow/" + workflow
                + "/runs").then().statusCode(200).extract().jsonPath().getLong("id");
        // the run's organization, as the ARI control that creates its media channel knows it
        organization = new Sql(dataSource).queryLong("SELECT organization_id FROM workflow_runs WHERE id = ?", runId);
        SimulatedCaller forged = new SimulatedCaller(vertx, Carrier.ASTERISK, "PCMU");
        callers.add(forged);
        assertThatThrownBy(() -> forged.connect(address(runId, "0".repeat(64)))).as("a token not the run's")
                .hasMessageContaining("403");

        SimulatedCaller caller = new SimulatedCaller(vertx, Carrier.ASTERISK, "PCMU");
        callers.add(caller);
        caller.connect(address(runId, token(runId)));
        caller.pauses(1_600).says("Where is my order?").pauses(2_600).says("Tell me about returns.").pauses(2_900)
                .says("No that is all thanks.").pauses(1_000);
        caller.closed.get(40, TimeUnit.SECONDS);

        JsonPath run = VoiceAgents.completedRun(key, workflow, runId);
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("end_call_node");
        assertThat(caller.violations).as("the media subprotocol agreed, every frame a multiple of 160 bytes").isEmpty();
        assertThat(caller.hungUpByAgent).as("the agent hung up with chan_websocket's HANGUP").isTrue();
        assertThat(caller.marksEchoed).as("MARK_MEDIA answered by MEDIA_MARK_PROCESSED paces the playout").isNotEmpty();
        assertThat(caller.agentFramesBetween(0, caller.speech.get(0)[0])).as("the greeting played").isGreaterThan(20);
        assertThat(caller.clears).as("the barge-in flushed Asterisk's queue").hasSize(1);
        assertThat(caller.clears.getFirst() - caller.speech.get(2)[0]).isBetween(50L, 900L);
        String transcript = new String(Api.download(run.getString("transcript_public_url")), StandardCharsets.UTF_8);
        assertThat(transcript).startsWith("assistant: Hello, this is Acme. How can I help you?\nuser: Where is my order?\n")
                .endsWith("assistant: Thank you, goodbye.\n");
    }
}
