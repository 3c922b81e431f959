package dev.voiceagent.adapters.media;

import static dev.voiceagent.adapters.media.ScriptedStart.ADMITTED;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.domain.audio.AudioFormat;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A browser's call over the plain WebSocket, on a real socket (Vert.x, localhost), the browser played by the test and
 * the session scripted: the format said first, the caller's audio cut into whole 20 ms frames whatever its messages'
 * sizes, the control messages, the agent's audio as binary frames, marks reached when the audio before them has had
 * time to play, a clear returning the pending marks at once, and the call's end both ways.
 */
class BrowserVoiceSocketTest {

    /** 20 ms of 16-bit PCM at 16 kHz. */
    private static final int FRAME = 640;
    private static Vertx vertx;
    private final ScriptedStart start = new ScriptedStart();
    private LocalWebSocket browser;
    private MediaChannel channel;

    @BeforeAll
    static void vertx() {
        vertx = Vertx.vertx();
    }

    @AfterAll
    static void closeVertx() throws Exception {
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @BeforeEach
    void connect() throws Exception {
        browser = LocalWebSocket.open(vertx, socket -> new BrowserVoiceSocket(socket, ADMITTED, start, vertx,
                Vertx.currentContext()).listen());
        channel = start.channel();
        start.awaitSession();
    }

    @AfterEach
    void close() throws Exception {
        browser.close();
        assertThat(start.session.offLoop).as("session calls off the call's loop").isEmpty();
    }

    /** {@code length} bytes counting on from {@code from}, so that a frame shows where its bytes came from. */
    private static byte[] bytes(int from, int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) ((from + i) % 251);
        }
        return bytes;
    }

    @Test
    void theFormatIsSaidFirstAndTheSessionSpeaksIt() throws Exception {
        JsonObject ready = new JsonObject(browser.nextText());

        assertThat(ready.getString("type")).isEqualTo("ready");
        assertThat(ready.getJsonObject("payload").getMap()).containsExactlyInAnyOrderEntriesOf(Map.of("run_id", 3,
                "encoding", "pcm_s16le", "sample_rate", 16_000, "channels", 1, "frame_ms", 20));
        assertThat(channel.format()).isEqualTo(AudioFormat.PCM_16K);
        assertThat(channel.resumable()).isFalse();
    }

    @Test
    void theCallersAudioReachesTheSessionInWhole20MsFramesWhateverItsMessagesSizes() throws Exception {
        int sent = 0;
        for (int size : new int[] {1, 639, 1_000, 3, 277, 100}) { // 1,920 bytes (three frames), then 100 more
            browser.send(bytes(sent, size));
            sent += size;
        }
        browser.send("{\"type\":\"dtmf\",\"payload\":{\"digit\":\"1\"}}"); // after the audio, on the same socket

        assertThat(start.session.next()).isEqualTo("dtmf 1");
        assertThat(start.session.audio).hasSize(3);
        for (int frame = 0; frame < 3; frame++) {
            assertThat(start.session.audio.poll()).as("frame %d", frame).containsExactly(bytes(frame * FRAME, FRAME));
        }

        browser.send(bytes(sent, FRAME - 100)); // the fourth frame's rest
        assertThat(start.session.nextAudio()).containsExactly(bytes(3 * FRAME, FRAME));
    }

    @Test
    void controlMessagesAreReadAndWhatIsNotUnderstoodIsSaid() throws Exception {
        browser.nextText(); // ready
        browser.send("{\"type\":\"dtmf\",\"payload\":{\"digit\":\"x\"}}"); // not a key
        browser.send("not json");
        browser.send("{\"type\":\"dance\"}");
        browser.send("{\"type\":\"dtmf\",\"payload\":{\"digit\":\"#\"}}");
        browser.send("{\"type\":\"hangup\"}");

        assertThat(new JsonObject(browser.nextText()).getJsonObject("payload").getMap())
                .containsEntry("message", "unreadable message: not JSON").containsEntry("error_type", "bad_message");
        assertThat(new JsonObject(browser.nextText()).getJsonObject("payload").getString("message"))
                .isEqualTo("unknown message type: dance");
        assertThat(start.session.next()).isEqualTo("dtmf #");
        assertThat(start.session.next()).isEqualTo("stopped");
    }

    @Test
    void theAgentsAudioAndEventsGoOutAsTheyCome() throws Exception {
        browser.nextText(); // ready
        start.onLoop(() -> {
            channel.play(bytes(0, FRAME));
            channel.feedback(Map.of("type", "rtf-bot-text", "payload", Map.of("text", "Hello.")));
        });

        assertThat(browser.nextBinary()).containsExactly(bytes(0, FRAME));
        assertThat(new JsonObject(browser.nextText()).getJsonObject("payload").getString("text")).isEqualTo("Hello.");
    }

    @Test
    void aMarkIsReachedWhenTheAudioBeforeItHasHadTimeToPlay() throws Exception {
        long[] marked = new long[1];
        start.onLoop(() -> {
            for (int i = 0; i < 10; i++) {
                channel.play(bytes(i, FRAME)); // 200 ms of audio, sent at once
            }
            marked[0] = System.nanoTime();
            channel.mark("a");
            channel.mark("b");
        });

        assertThat(start.session.next()).isEqualTo("marked a");
        long waitedMs = (System.nanoTime() - marked[0]) / 1_000_000;
        assertThat(start.session.next()).isEqualTo("marked b");
        assertThat(waitedMs).as("the 200 ms of audio before the mark played first").isBetween(180L, 2_000L);
        assertThat(browser.binaries).hasSize(10);
    }

    @Test
    void aClearReturnsThePendingMarksAtOnceAndRestartsThePlayClock() throws Exception {
        long[] cleared = new long[1];
        start.onLoop(() -> {
            for (int i = 0; i < 50; i++) {
                channel.play(bytes(i, FRAME)); // 1 s
            }
            channel.mark("x");
            for (int i = 0; i < 25; i++) {
                channel.play(bytes(i, FRAME)); // 0.5 s more
            }
            channel.mark("y");
            cleared[0] = System.nanoTime();
            channel.clear();
        });

        assertThat(start.session.next()).isEqualTo("marked x");
        assertThat(start.session.next()).isEqualTo("marked y");
        assertThat((System.nanoTime() - cleared[0]) / 1_000_000).as("returned at the clear, not as played")
                .isLessThan(500L);
        browser.nextText(); // ready
        for (int i = 0; i < 75; i++) {
            browser.nextBinary();
        }
        assertThat(new JsonObject(browser.nextText()).getString("type")).isEqualTo("clear");

        long[] asked = new long[1];
        start.onLoop(() -> {
            channel.play(bytes(0, FRAME));
            asked[0] = System.nanoTime();
            channel.mark("z");
        });
        assertThat(start.session.next()).isEqualTo("marked z");
        assertThat((System.nanoTime() - asked[0]) / 1_000_000).as("20 ms of audio after the clear, not 1.5 s")
                .isLessThan(500L);
        assertThat(start.session.events.poll(1_700, TimeUnit.MILLISECONDS)).as("the cleared marks' timers").isNull();
    }

    @Test
    void theSessionEndingTheCallSaysWhyBeforeTheSocketCloses() throws Exception {
        browser.nextText(); // ready
        start.onLoop(() -> {
            channel.close("end_call");
            channel.play(bytes(0, FRAME));
        });

        JsonObject ended = new JsonObject(browser.nextText());
        assertThat(ended.getString("type")).isEqualTo("call-ended");
        assertThat(ended.getJsonObject("payload").getString("reason")).isEqualTo("end_call");
        assertThat(browser.closeSeen()).isEqualTo("1000 end_call");
        assertThat(browser.binaries).isEmpty();
        assertThat(start.session.next()).isEqualTo("stopped");
    }

    @Test
    void aBrowserThatLeavesHangsUpAndItsPendingMarksAreForgotten() throws Exception {
        start.onLoop(() -> {
            channel.play(bytes(0, FRAME * 10));
            channel.mark("never");
        });

        browser.hangUp();

        assertThat(start.session.next()).isEqualTo("stopped");
        assertThat(start.session.events.poll(500, TimeUnit.MILLISECONDS)).isNull();
    }

    @Test
    void aCallRefusedAfterTheBrowserLeftIsNoFailureOnTheEventLoop() throws Exception {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        vertx.exceptionHandler(failures::add);
        ScriptedStart refused = new ScriptedStart().later();
        LocalWebSocket other = LocalWebSocket.open(vertx, socket -> new BrowserVoiceSocket(socket, ADMITTED, refused,
                vertx, Vertx.currentContext()).listen());
        refused.channel();
        other.hangUp();
        Thread.sleep(100); // the close reaches the socket before the runtime answers
        refused.refuse();
        Thread.sleep(200);
        vertx.exceptionHandler(null);
        assertThat(failures).as("no NullPointerException for the session that never was").isEmpty();
    }
}
