package dev.voiceagent.deploy.support;

import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.audio.Pcm16;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A caller on the plain WebSocket voice route, as a browser page or a program would be: real speech (FreeTTS at
 * 16 kHz) and silence as 16-bit PCM, one 20 ms binary frame every 20 ms; it keeps when the agent's audio arrived and
 * how loud it was, the JSON events in order, the clears, and how the socket closed.
 *
 * <p>It is the JDK's WebSocket client, whose listener is in place before the upgrade and is told of messages and the
 * close one at a time in order: the service's first message (ready, or a refusal's reason) is never lost and always
 * comes before the close (Vert.x's client set its handlers after the upgrade and now and then missed it).
 */
public final class BrowserCaller implements ScriptedCaller {

    private static final byte[] SILENCE = new byte[SpokenScript.FRAME_BYTES];

    private final Vertx vertx;
    private final HttpClient client = HttpClient.newHttpClient();
    private final SpokenScript script = new SpokenScript(SILENCE);
    private WebSocket socket;
    /** The last send: the JDK's client takes one at a time, so each waits for the one before. */
    private CompletableFuture<?> sending = CompletableFuture.completedFuture(null);
    private long timer;
    /** Each line's voiced part as sent: its first voiced frame's time and its last one's end (epoch ms). */
    public final List<long[]> speech = script.speech();
    /** When each agent frame arrived (epoch ms), and its loudness (dBFS). */
    public final List<long[]> agentFrames = new ArrayList<>();
    public final List<JsonObject> events = new ArrayList<>();
    public final List<Long> clears = new ArrayList<>();
    public final CompletableFuture<String> closed = new CompletableFuture<>();

    public BrowserCaller(Vertx vertx) {
        this.vertx = vertx;
    }

    /**
     * Connects to {@code url} (its query kept) with these headers; fails with the refusal (an ExecutionException
     * caused by a {@link java.net.http.WebSocketHandshakeException} that holds the answer's status).
     */
    public BrowserCaller connect(String url, MultiMap headers) throws Exception {
        WebSocket.Builder builder = client.newWebSocketBuilder();
        if (headers != null) {
            headers.forEach(builder::header);
        }
        socket = builder.buildAsync(URI.create(url), new Listener()).get(10, TimeUnit.SECONDS);
        timer = vertx.setPeriodic(20, t -> tick());
        return this;
    }

    /** What the service sends, whole messages in order, then the close. */
    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();
        private final ByteArrayOutputStream binary = new ByteArrayOutputStream();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                message(new JsonObject(text.toString()));
                text.setLength(0);
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onBinary(WebSocket ws, ByteBuffer data, boolean last) {
            byte[] bytes = new byte[data.remaining()];
            data.get(bytes);
            binary.writeBytes(bytes);
            if (last) {
                audio(binary.toByteArray());
                binary.reset();
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            vertx.cancelTimer(timer);
            closed.complete(reason);
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            vertx.cancelTimer(timer);
            closed.complete(null); // cut without a close frame
        }
    }

    @Override
    public synchronized BrowserCaller says(String line) {
        List<byte[]> frames = SpokenScript.frames(line);
        script.say(frames, frames);
        return this;
    }

    @Override
    public synchronized BrowserCaller pauses(int ms) {
        script.pause(ms);
        return this;
    }

    @Override
    public synchronized void send(JsonObject message) {
        String text = message.encode();
        sending = sending.handle((v, e) -> null).thenCompose(v -> socket.sendText(text, true));
    }

    private synchronized void tick() {
        byte[] frame = script.next(System.currentTimeMillis());
        sending = sending.handle((v, e) -> null).thenCompose(v -> socket.sendBinary(ByteBuffer.wrap(frame), true));
    }

    private synchronized void audio(byte[] data) {
        agentFrames.add(new long[] {System.currentTimeMillis(), Math.round(Loudness.dbfs(Pcm16.samples(data)))});
    }

    private synchronized void message(JsonObject m) {
        events.add(m);
        if ("clear".equals(m.getString("type"))) {
            clears.add(System.currentTimeMillis());
        }
    }

    /** The events of this type so far, in order. */
    public synchronized List<JsonObject> events(String type) {
        return events.stream().filter(e -> type.equals(e.getString("type"))).toList();
    }

    /** Agent frames louder than {@code dbfs} that arrived in [from, to). */
    public synchronized long loudFramesBetween(long from, long to, double dbfs) {
        return agentFrames.stream().filter(f -> f[0] >= from && f[0] < to && f[1] > dbfs).count();
    }

    @Override
    public synchronized long firstAgentFrameAfter(long from) {
        return agentFrames.stream().mapToLong(f -> f[0]).filter(t -> t >= from).findFirst().orElse(-1L);
    }

    @Override
    public synchronized List<long[]> speech() {
        return List.copyOf(speech);
    }

    @Override
    public synchronized List<Long> clears() {
        return List.copyOf(clears);
    }

    @Override
    public CompletableFuture<String> closed() {
        return closed;
    }

    @Override
    public void close() {
        vertx.cancelTimer(timer);
        if (socket != null && !socket.isOutputClosed()) {
            CompletableFuture<?> hangUp;
            synchronized (this) {
                sending = sending.handle((v, e) -> null)
                        .thenCompose(v -> socket.sendClose(WebSocket.NORMAL_CLOSURE, "hangup"));
                hangUp = sending;
            }
            try { // the service answers the close: then it is a hang-up, not a connection lost
                hangUp.get(2, TimeUnit.SECONDS);
                closed.get(2, TimeUnit.SECONDS);
            } catch (Exception e) {
                // cut below
            }
        }
        if (socket != null) {
            socket.abort();
        }
        client.shutdownNow();
    }
}
