package dev.voiceagent.adapters.simulator;

import dev.voiceagent.application.call.SimulatedCallee;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.telephony.CalleeScript;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Singleton;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import org.jboss.logging.Logger;

/**
 * SIMULATOR: the person on a simulated call, connected to the media route exactly as Twilio Media Streams connects
 * (connected, start with the run in customParameters, a 20 ms μ-law frame every 20 ms, mark echoes, clear honoured,
 * stop). It plays the agent's audio in real time and says its script's lines in FreeTTS's kevin voice: each line once
 * the agent finished speaking and the script's pause passed (or after 6 s when the agent says nothing), an
 * interrupting line over the agent's answer. After its last line was answered it hangs up, unless the agent did first.
 */
@Singleton
public class TwilioStreamCallee implements SimulatedCallee {

    private static final Logger LOG = Logger.getLogger(TwilioStreamCallee.class);
    static final int FRAME_MS = 20;
    /** Simulated calls talking at once (a campaign's max_concurrency is at most this). */
    static final int MAX_CALLS = 500;
    /** The callee speaks anyway when the agent said nothing for this long after its line (or the call's start). */
    static final long UNANSWERED_MS = 6_000;
    /** After its last line was answered, the callee hangs up after this much silence. */
    static final long GOODBYE_MS = 2_000;
    private static final byte[] SILENCE = new byte[SpokenLines.FRAME];

    static {
        Arrays.fill(SILENCE, (byte) 0xFF);
    }

    private final Vertx vertx;
    private final FreeTts freeTts;
    private final SpokenLines spoken;
    private final WebSocketClient client;

    public TwilioStreamCallee(Vertx vertx, FreeTts freeTts, SpokenLines spoken) {
        this.vertx = vertx;
        this.freeTts = freeTts;
        this.spoken = spoken;
        // one socket per simulated call, all to this service's own address: Vert.x's default of 50 would queue a
        // campaign's 51st talking call
        this.client = vertx.createWebSocketClient(new WebSocketClientOptions().setConnectTimeout(10_000)
                .setMaxConnections(MAX_CALLS).setMaxFrameSize(1 << 20).setMaxMessageSize(4 << 20));
    }

    @PreDestroy
    void close() {
        client.close();
    }

    @Override
    public Uni<Integer> answer(String mediaUrl, long runId, CalleeScript script, int maxSeconds) {
        return Uni.createFrom().completionStage(() -> {
            Call call = new Call(runId, script, maxSeconds);
            Context context = vertx.getOrCreateContext();
            context.runOnContext(v -> call.connect(mediaUrl));
            return call.ended;
        });
    }

    /** One simulated call; all of it on one event-loop context. */
    private final class Call {
        final CompletableFuture<Integer> ended = new CompletableFuture<>();
        private final long runId;
        private final CalleeScript script;
        private final int maxSeconds;
        private final List<CompletableFuture<byte[]>> lines = new ArrayList<>();
        private final String streamSid = "MZ" + hex();
        private final Deque<Object> agent = new ArrayDeque<>(); // frames (byte[]) and marks (String), in order
        private WebSocket socket;
        private long startedAt;
        private long framesSent;
        private long sequence;
        private long timer = -1;
        private long deadline = -1;
        private byte[] saying;
        private int sayingAt;
        private int nextLine;
        private long lineEndedAt;
        private boolean agentAnswered;
        private long answerStartedAt = -1;
        private long lastAgentFrameAt;
        private boolean hungUp;

        Call(long runId, CalleeScript script, int maxSeconds) {
            this.runId = runId;
            this.script = script;
            this.maxSeconds = maxSeconds;
            for (String line : script.lines()) { // synthesized ahead, on FreeTTS's worker
                lines.add(freeTts.audio(FreeTts.Speaker.CALLEE, line, AudioFormat.MULAW_8K));
            }
        }

        void connect(String url) {
            URI uri = URI.create(url);
            boolean tls = "wss".equals(uri.getScheme());
            WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(uri.getHost())
                    .setPort(uri.getPort() > 0 ? uri.getPort() : tls ? 443 : 80).setSsl(tls)
                    .setURI(uri.getRawPath());
            client.connect(options).onSuccess(this::connected).onFailure(failure -> {
                LOG.warnf("simulated callee of run %d: the media route refused: %s", runId, failure.getMessage());
                ended.completeExceptionally(failure);
            });
        }

        private void connected(WebSocket ws) {
            socket = ws;
            startedAt = System.currentTimeMillis();
            lineEndedAt = startedAt;
            ws.textMessageHandler(this::message);
            ws.closeHandler(v -> finish());
            ws.exceptionHandler(failure -> LOG.debugf("simulated callee of run %d: %s", runId, failure.getMessage()));
            ws.writeTextMessage("{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}");
            ws.writeTextMessage(new JsonObject().put("event", "start").put("sequenceNumber", String.valueOf(++sequence))
                    .put("streamSid", streamSid).put("start", new JsonObject().put("streamSid", streamSid)
                            .put("accountSid", "AC" + hex()).put("callSid", "CA" + hex())
                            .put("tracks", List.of("inbound"))
                            .put("customParameters", new JsonObject().put("workflow_run_id", String.valueOf(runId)))
                            .put("mediaFormat", new JsonObject().put("encoding", "audio/x-mulaw")
                                    .put("sampleRate", 8000).put("channels", 1))).encode());
            timer = vertx.setPeriodic(FRAME_MS, t -> tick());
            deadline = vertx.setTimer(maxSeconds * 1_000L, t -> hangUp());
        }

        private void tick() {
            long now = System.currentTimeMillis();
            long due = (now - startedAt) / FRAME_MS + 1;
            while (framesSent < due && !hungUp) { // paced by the clock, not by the timer's drift
                play(now);
                send(now);
                framesSent++;
            }
            if (!hungUp && saying == null) {
                decide(now);
            }
        }

        /** The agent's audio plays one frame at a time; a mark is echoed once the audio before it played. */
        private void play(long now) {
            echoMarks();
            if (agent.peekFirst() instanceof byte[]) {
                agent.pollFirst();
                lastAgentFrameAt = now;
                if (saying == null && !agentAnswered && now >= lineEndedAt) {
                    agentAnswered = true;
                    answerStartedAt = now;
                }
                echoMarks();
            }
        }

        private void echoMarks() {
            while (agent.peekFirst() instanceof String mark) {
                agent.pollFirst();
                write(new JsonObject().put("event", "mark").put("sequenceNumber", String.valueOf(++sequence))
                        .put("streamSid", streamSid).put("mark", new JsonObject().put("name", mark)).encode());
            }
        }

        private void send(long now) {
            byte[] frame = SILENCE;
            if (saying != null) {
                frame = Arrays.copyOfRange(saying, sayingAt, sayingAt + SpokenLines.FRAME);
                sayingAt += SpokenLines.FRAME;
                if (sayingAt >= saying.length) {
                    saying = null;
                    lineEndedAt = now;
                }
            }
            write("{\"event\":\"media\",\"sequenceNumber\":\"" + (++sequence) + "\",\"media\":{\"track\":\"inbound\","
                    + "\"chunk\":\"" + framesSent + "\",\"timestamp\":\"" + framesSent * FRAME_MS + "\",\"payload\":\""
                    + Base64.getEncoder().encodeToString(frame) + "\"},\"streamSid\":\"" + streamSid + "\"}");
        }

        private void decide(long now) {
            boolean agentQuiet = agent.stream().noneMatch(byte[].class::isInstance);
            if (nextLine < lines.size()) {
                boolean interrupt = script.interrupts(nextLine) && answerStartedAt >= 0
                        && now - answerStartedAt >= script.interruptAfterMs();
                boolean answered = agentAnswered && agentQuiet && now - lastAgentFrameAt >= script.pauseMs();
                boolean unanswered = !agentAnswered && now - lineEndedAt >= UNANSWERED_MS;
                if ((interrupt || answered || unanswered) && lines.get(nextLine).isDone()) {
                    say(lines.get(nextLine).join());
                }
            } else if (agentAnswered && agentQuiet && now - lastAgentFrameAt >= GOODBYE_MS
                    || !agentAnswered && now - lineEndedAt >= UNANSWERED_MS) {
                hangUp();
            }
        }

        private void say(byte[] audio) {
            spoken.remember(script.lines().get(nextLine), audio);
            saying = audio;
            sayingAt = 0;
            nextLine++;
            agentAnswered = false;
            answerStartedAt = -1;
        }

        private void message(String text) {
            JsonObject message;
            try {
                message = new JsonObject(text);
            } catch (RuntimeException e) {
                return;
            }
            switch (message.getString("event", "")) {
                case "media" -> {
                    byte[] audio = Base64.getDecoder().decode(message.getJsonObject("media").getString("payload"));
                    for (int at = 0; at < audio.length; at += SpokenLines.FRAME) {
                        agent.addLast(Arrays.copyOfRange(audio, at, Math.min(audio.length, at + SpokenLines.FRAME)));
                    }
                }
                case "mark" -> agent.addLast(message.getJsonObject("mark").getString("name"));
                case "clear" -> { // what was not played is dropped; its marks come back at once
                    agent.removeIf(byte[].class::isInstance);
                    echoMarks();
                }
                default -> { }
            }
        }

        private void write(String text) {
            if (socket != null && !socket.isClosed()) {
                socket.writeTextMessage(text);
            }
        }

        /** The callee hangs up: Twilio says stop and closes the stream. */
        private void hangUp() {
            if (hungUp) {
                return;
            }
            hungUp = true;
            write("{\"event\":\"stop\",\"sequenceNumber\":\"" + (++sequence) + "\",\"streamSid\":\"" + streamSid
                    + "\",\"stop\":{}}");
            if (socket != null && !socket.isClosed()) {
                socket.close();
            }
        }

        private void finish() {
            vertx.cancelTimer(timer);
            vertx.cancelTimer(deadline);
            hungUp = true;
            long millis = System.currentTimeMillis() - startedAt;
            ended.complete((int) Math.max(1, (millis + 999) / 1_000));
        }
    }

    private static String hex() {
        byte[] bytes = new byte[16];
        ThreadLocalRandom.current().nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
