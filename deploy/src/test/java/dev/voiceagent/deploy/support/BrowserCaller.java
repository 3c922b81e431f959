package dev.voiceagent.deploy.support;

import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.audio.Pcm16;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ClientWebSocket;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A caller on the plain WebSocket voice route, as a browser page or a program would be: real speech (FreeTTS at
 * 16 kHz) and silence as 16-bit PCM, one 20 ms binary frame every 20 ms; it keeps when the agent's audio arrived and
 * how loud it was, the JSON events in order, the clears, and how the socket closed.
 */
public final class BrowserCaller implements ScriptedCaller {

    private static final byte[] SILENCE = new byte[SpokenScript.FRAME_BYTES];

    private final Vertx vertx;
    private final WebSocketClient client;
    private final SpokenScript script = new SpokenScript(SILENCE);
    private WebSocket socket;
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
        this.client = vertx.createWebSocketClient();
    }

    /** Connects to {@code url} (its query kept) with these headers; fails with the refusal's status. */
    public BrowserCaller connect(String url, MultiMap headers) throws Exception {
        URI uri = URI.create(url);
        WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(uri.getHost()).setPort(uri.getPort())
                .setURI(uri.getRawPath() + (uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery()));
        if (headers != null) {
            options.setHeaders(headers);
        }
        // the handlers are set before it connects: the server's first message (ready) comes with the upgrade, and a
        // handler set once the connection completed could miss it
        ClientWebSocket ws = client.webSocket();
        ws.binaryMessageHandler(this::audio);
        ws.textMessageHandler(text -> message(new JsonObject(text)));
        ws.closeHandler(v -> {
            vertx.cancelTimer(timer);
            // the close can overtake a message still queued for the handler (the service's refusal says why, then
            // closes): the close is reported once what came before it was handled
            String reason = ws.closeReason();
            vertx.setTimer(100, t -> closed.complete(reason));
        });
        socket = ws.connect(options).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        timer = vertx.setPeriodic(20, t -> tick());
        return this;
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
        socket.writeTextMessage(message.encode());
    }

    private synchronized void tick() {
        byte[] frame = script.next(System.currentTimeMillis());
        socket.writeBinaryMessage(Buffer.buffer(frame));
    }

    private synchronized void audio(Buffer data) {
        agentFrames.add(new long[] {System.currentTimeMillis(),
                Math.round(Loudness.dbfs(Pcm16.samples(data.getBytes())))});
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
        if (socket != null && !socket.isClosed()) {
            socket.close();
        }
        client.close();
    }
}
