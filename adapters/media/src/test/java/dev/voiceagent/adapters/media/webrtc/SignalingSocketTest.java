package dev.voiceagent.adapters.media.webrtc;

import static dev.voiceagent.adapters.media.ScriptedStart.ADMITTED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.media.LocalWebSocket;
import dev.voiceagent.adapters.media.ScriptedStart;
import dev.voiceagent.domain.audio.AudioFormat;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The reference dashboard's signaling for one WebRTC call, on a real WebSocket, the browser's messages played by the
 * test: the offer answered and the session started with the peer as its channel, a peer that never connects ending
 * the call when its time is up, and the calls that end before their session (a refused offer, a browser that left).
 */
class SignalingSocketTest {

    private static Vertx vertx;
    private static final SignalingSocket.Settings LOOPBACK =
            new SignalingSocket.Settings(List.of(InetAddress.getLoopbackAddress()), 0, 0);
    private final ScriptedStart start = new ScriptedStart();
    private LocalWebSocket browser;

    @BeforeAll
    static void vertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void closeVertx() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void close() throws Exception {
        browser.close();
        assertThat(start.session.offLoop).isEmpty();
    }

    private void connect(Duration connectTimeout) throws Exception {
        browser = LocalWebSocket.open(vertx, socket -> new SignalingSocket(socket, ADMITTED, null, start, vertx,
                Vertx.currentContext(), LOOPBACK, connectTimeout).listen());
    }

    private void offer(String sdp) {
        browser.send(new JsonObject().put("type", "offer").put("payload", new JsonObject().put("pc_id", "pc-1")
                .put("sdp", sdp).put("type", "offer")).encode());
    }

    @Test
    void aPeerThatNeverConnectsEndsTheCallWhenItsTimeIsUp() throws Exception {
        long opened = System.nanoTime();
        connect(Duration.ofMillis(700));
        try (BrowserPeer peer = new BrowserPeer(DtlsSrtpServer.generate())) {
            offer(peer.offer());

            JsonObject answer = new JsonObject(browser.nextText());
            assertThat(answer.getString("type")).isEqualTo("answer");
            assertThat(answer.getJsonObject("payload").getString("pc_id")).isEqualTo("pc-1");
            assertThat(answer.getJsonObject("payload").getString("sdp")).contains("a=ice-lite");
            assertThat(start.channel().format()).as("the session speaks through the peer")
                    .isEqualTo(AudioFormat.PCM_16K);

            JsonObject ended = new JsonObject(browser.nextText());
            assertThat(ended.getString("type")).isEqualTo("call-ended");
            assertThat(ended.getJsonObject("payload").getMap()).containsEntry("reason", "webrtc_connection_failed")
                    .containsEntry("pc_id", "pc-1").containsEntry("workflow_run_id", 3);
            assertThat((System.nanoTime() - opened) / 1_000_000).as("the time given to connect, from the socket's open")
                    .isBetween(650L, 5_000L);
            assertThat(browser.closeSeen()).isEqualTo("1000 webrtc_connection_failed");
            assertThat(start.session.next()).as("the session hears the call end").isEqualTo("stopped");
            assertThat(start.unstarted).as("its session ends the run").isEmpty();
        }
    }

    @Test
    void aRefusedOfferEndsTheRunWithoutASession() throws Exception {
        connect(Duration.ofSeconds(30));
        offer("v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=rtpmap:96 VP8/90000\r\n");

        JsonObject error = new JsonObject(browser.nextText());
        assertThat(error.getString("type")).isEqualTo("error");
        assertThat(error.getJsonObject("payload").getString("error_type")).isEqualTo("bad_offer");
        assertThat(new JsonObject(browser.nextText()).getJsonObject("payload").getString("reason"))
                .isEqualTo("pipeline_error");
        assertThat(browser.closeSeen()).isEqualTo("1000 pipeline_error");
        assertThat(start.media).isNotDone();
        assertThat(start.unstarted()).containsExactly("pipeline_error");
    }

    @Test
    void aBrowserThatLeavesBeforeItsOfferHangsUpTheRun() throws Exception {
        connect(Duration.ofSeconds(30));

        browser.hangUp();

        assertThat(start.unstarted()).containsExactly("user_hangup");
        assertThat(start.media).isNotDone();
    }

    @Test
    void renegotiationAndUnknownMessagesAreRefusedOnTheSocket() throws Exception {
        connect(Duration.ofSeconds(30));
        browser.send("{\"type\":\"renegotiate\",\"payload\":{}}");
        browser.send("{\"type\":\"dance\"}");
        browser.send("not json");

        assertThat(new JsonObject(browser.nextText()).getJsonObject("payload").getString("error_type"))
                .isEqualTo("renegotiation_unsupported");
        assertThat(new JsonObject(browser.nextText()).getJsonObject("payload").getString("error_type"))
                .isEqualTo("bad_message");
        assertThat(new JsonObject(browser.nextText()).getJsonObject("payload").getString("error_type"))
                .isEqualTo("bad_message");
        assertThat(browser.closed).isNotDone();
    }
}
