package dev.voiceagent.deploy.bench;

import dev.voiceagent.deploy.support.CallerTimeline;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.audio.Pcm16;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * A caller of the turn-taking benchmark, on a phone (Twilio Media Streams, μ-law 8 kHz) or in a browser (the plain
 * WebSocket voice route, 16-bit PCM at 16 kHz). Unlike {@link SimulatedCaller} it mixes what it sends sample by sample:
 * its own speech (FreeTTS) and noise bursts in the foreground, a background (babble, street noise) when one is on, and,
 * as a speakerphone does, the agent's audio it played, {@link #ECHO_DB} down and {@link #ECHO_MS} late, when its echo
 * is on. It follows a program of steps (say, pause, wait for the agent's answer, wait for the agent to be quiet) in
 * real time, one 20 ms frame every 20 ms, and registers each line's words with the fake recognizer's
 * {@link CallerTimeline} (frames of its own stream) before sending them. It plays the agent's audio in real time (a
 * Twilio mark is echoed once the audio before it has played, a clear drops what was not played) and keeps the times
 * of what happened: each line's first and last voiced frames, the agent's audio, the clears.
 */
final class TurnCaller {

    enum Transport {
        PHONE, BROWSER
    }

    /** The speakerphone's echo: the agent's audio as the caller played it, this much quieter (dB) and this late. */
    static final double ECHO_DB = 25;
    static final int ECHO_MS = 150;

    private final Transport transport;
    final int rate;
    private final int frameSamples;
    private final Vertx vertx;
    private final CallerTimeline timeline;
    private WebSocketClient phoneClient;
    private io.vertx.core.http.WebSocket phone;
    private HttpClient http;
    private WebSocket browser;
    private CompletableFuture<?> sending = CompletableFuture.completedFuture(null);
    private long timer = -1;

    /** What the caller does next, in order; a step is done when it says so (and the audio before it was sent). */
    interface Step {
        boolean run(long now);
    }

    private final Deque<Step> steps = new ArrayDeque<>();
    private final Deque<short[]> foreground = new ArrayDeque<>();
    private final Map<Long, String> frameLabels = new HashMap<>();
    private short[] background;
    private int backgroundAt;
    private boolean echo;
    /** The caller's frames sent: the position the recognizer's timeline counts in (marks are not frames). */
    private long frameIndex;
    /** Twilio's sequence number: every message after start, frames and marks. */
    private long sequence = 1;
    /** The agent's audio not played yet, in the order received. */
    private final Deque<short[]> playout = new ArrayDeque<>();
    private int playoutOffset;
    private long queuedSamples;
    private long playedSamples;
    private final List<Object[]> pendingMarks = new ArrayList<>();
    /** What the caller's loudspeaker played, the last second of it, by sample index of the call. */
    private final short[] played;
    private long sampleIndex;

    /** When things happened (epoch ms): a line's voice began (label.on) and ended (label.off), steps' labels. */
    final Map<String, Long> moments = new HashMap<>();
    /** Each agent audio message: when it arrived (epoch ms) and how long it plays (ms). */
    final List<long[]> agentAudio = new ArrayList<>();
    final List<Long> clears = new ArrayList<>();
    final CompletableFuture<String> closed = new CompletableFuture<>();
    /** The agent's audio's loudness as received: the sum of squares and samples (its RMS in dBFS: {@link #agentDbfs}). */
    private double agentSquares;
    private long agentSamples;
    private long lastAgentAudio;
    final List<String> violations = new ArrayList<>();

    TurnCaller(Vertx vertx, Transport transport, CallerTimeline timeline) {
        this.vertx = vertx;
        this.transport = transport;
        this.rate = transport == Transport.PHONE ? 8_000 : 16_000;
        this.frameSamples = rate / 50;
        this.timeline = timeline;
        this.played = new short[rate];
    }

    TurnCaller connect(String url) throws Exception {
        if (transport == Transport.PHONE) {
            phoneClient = vertx.createWebSocketClient();
            URI uri = URI.create(url);
            phone = phoneClient.connect(new WebSocketConnectOptions().setHost(uri.getHost()).setPort(uri.getPort())
                    .setURI(uri.getRawPath())).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
            phone.textMessageHandler(this::phoneMessage);
            phone.closeHandler(v -> {
                vertx.cancelTimer(timer);
                closed.complete(String.valueOf(phone.closeReason()));
            });
            String sid = SimulatedCaller.STREAM_SID;
            phone.writeTextMessage("{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}");
            phone.writeTextMessage(new JsonObject().put("event", "start").put("sequenceNumber", "1")
                    .put("streamSid", sid).put("start", new JsonObject().put("streamSid", sid)
                            .put("accountSid", "AC1").put("callSid", "CA1").put("tracks", List.of("inbound"))
                            .put("customParameters", new JsonObject().put("workflow_run_id", "1"))
                            .put("mediaFormat", new JsonObject().put("encoding", "audio/x-mulaw")
                                    .put("sampleRate", 8000).put("channels", 1))).encode());
        } else {
            http = HttpClient.newHttpClient();
            browser = http.newWebSocketBuilder().buildAsync(URI.create(url), new Listener()).get(10, TimeUnit.SECONDS);
        }
        timer = vertx.setPeriodic(20, t -> tick());
        return this;
    }

    // ---- the program ----

    /** Says {@code audio} (the caller's speech at its rate); its words, when not null, go to the recognizer's timeline. */
    TurnCaller says(String label, short[] audio, String words) {
        steps.add(now -> {
            int first = -1;
            int last = -1;
            List<short[]> frames = frames(audio);
            for (int i = 0; i < frames.size(); i++) {
                if (Loudness.dbfs(frames.get(i)) > SimulatedCaller.VOICED_DBFS) {
                    first = first < 0 ? i : first;
                    last = i;
                }
            }
            long start = frameIndex + foreground.size();
            if (first >= 0) {
                frameLabels.put(start + first, label + ".on");
                frameLabels.merge(start + last, label + ".off", (a, b) -> a + "|" + b);
                if (words != null) {
                    timeline.add(start + first, start + last + 1, words);
                }
            }
            foreground.addAll(frames);
            return true;
        });
        return this;
    }

    /** A sound without words (a cough, a click): its loud part's first and last frames as label.on / label.off. */
    TurnCaller sounds(String label, short[] audio) {
        return says(label, audio, null);
    }

    TurnCaller pauses(int ms) {
        steps.add(now -> {
            for (int t = 0; t < ms; t += 20) {
                foreground.add(new short[frameSamples]);
            }
            return true;
        });
        return this;
    }

    /**
     * Waits for the agent's audio (the first message after this step began: label.answer), then {@code afterMs} more;
     * gives up after {@code timeoutMs} (no label).
     */
    TurnCaller awaitsAnswer(String label, int afterMs, int timeoutMs) {
        long[] began = {-1};
        steps.add(now -> {
            if (began[0] < 0) {
                began[0] = now;
            }
            Long first = moments.get(label + ".answer");
            if (first == null) {
                for (long[] audio : agentAudio) {
                    if (audio[0] >= began[0]) {
                        first = audio[0];
                        moments.put(label + ".answer", first);
                        break;
                    }
                }
            }
            return first != null ? now >= first + afterMs : now - began[0] > timeoutMs;
        });
        return this;
    }

    /** Waits until the agent was quiet (nothing to play, nothing received) for {@code quietMs}; label when done. */
    TurnCaller awaitsQuiet(String label, int quietMs, int timeoutMs) {
        long[] began = {-1};
        steps.add(now -> {
            if (began[0] < 0) {
                began[0] = now;
            }
            boolean done = playout.isEmpty() && now - Math.max(lastAgentAudio, began[0]) >= quietMs
                    || now - began[0] > timeoutMs;
            if (done) {
                moments.put(label, now);
            }
            return done;
        });
        return this;
    }

    /** From here a background (looped) under everything the caller sends; null: none. */
    TurnCaller background(short[] loop) {
        steps.add(now -> {
            background = loop;
            backgroundAt = 0;
            return true;
        });
        return this;
    }

    /** From here the caller's audio carries the agent's as a speakerphone returns it (or no longer). */
    TurnCaller echo(boolean on) {
        steps.add(now -> {
            echo = on;
            return true;
        });
        return this;
    }

    /** Hangs up once everything before was done. */
    TurnCaller hangsUp() {
        steps.add(now -> {
            moments.put("hangup", now);
            hangUp();
            return true;
        });
        return this;
    }

    synchronized boolean finished() {
        return moments.containsKey("hangup") || closed.isDone();
    }

    private List<short[]> frames(short[] audio) {
        List<short[]> frames = new ArrayList<>();
        for (int at = 0; at < audio.length; at += frameSamples) {
            frames.add(Arrays.copyOfRange(audio, at, at + frameSamples));
        }
        return frames;
    }

    // ---- real time ----

    private synchronized void tick() {
        long now = System.currentTimeMillis();
        while (!steps.isEmpty() && foreground.isEmpty() && !finished()) {
            if (!steps.peekFirst().run(now)) {
                break;
            }
            steps.pollFirst();
        }
        if (finished()) {
            return;
        }
        short[] frame = foreground.isEmpty() ? new short[frameSamples] : foreground.pollFirst().clone();
        String label = frameLabels.remove(frameIndex);
        if (label != null) {
            for (String l : label.split("\\|")) {
                moments.put(l, l.endsWith(".off") ? now + 20 : now);
            }
        }
        // the loudspeaker plays the next 20 ms of the agent's audio; the echo is what it played ECHO_MS ago
        short[] speaker = nextPlayed();
        int delay = ECHO_MS * rate / 1000;
        double gain = Math.pow(10, -ECHO_DB / 20);
        for (int i = 0; i < frameSamples; i++) {
            long index = sampleIndex + i;
            played[(int) (index % played.length)] = speaker[i];
            int sample = frame[i];
            if (background != null) {
                sample += background[backgroundAt];
                backgroundAt = (backgroundAt + 1) % background.length;
            }
            if (echo && index >= delay) {
                sample += (int) Math.round(played[(int) ((index - delay) % played.length)] * gain);
            }
            frame[i] = (short) Math.max(Short.MIN_VALUE, Math.min(Short.MAX_VALUE, sample));
        }
        sampleIndex += frameSamples;
        frameIndex++;
        if (transport == Transport.PHONE) {
            phone.writeTextMessage("{\"event\":\"media\",\"sequenceNumber\":\"" + (++sequence) + "\",\"media\":{"
                    + "\"track\":\"inbound\",\"chunk\":\"" + frameIndex + "\",\"timestamp\":\"" + frameIndex * 20
                    + "\",\"payload\":\"" + Base64.getEncoder().encodeToString(G711.encode(frame))
                    + "\"},\"streamSid\":\"" + SimulatedCaller.STREAM_SID + "\"}");
            List<Object[]> due = new ArrayList<>();
            for (Object[] mark : pendingMarks) {
                if ((long) mark[1] <= playedSamples) {
                    due.add(mark);
                }
            }
            pendingMarks.removeAll(due);
            due.forEach(m -> echoMark((String) m[0]));
        } else {
            byte[] bytes = Pcm16.bytes(frame);
            sending = sending.handle((v, e) -> null).thenCompose(v -> browser.sendBinary(ByteBuffer.wrap(bytes), true));
        }
    }

    /** The next 20 ms the loudspeaker plays: the agent's audio queued, else silence. */
    private short[] nextPlayed() {
        short[] out = new short[frameSamples];
        int filled = 0;
        while (filled < frameSamples && !playout.isEmpty()) {
            short[] head = playout.peekFirst();
            int n = Math.min(frameSamples - filled, head.length - playoutOffset);
            System.arraycopy(head, playoutOffset, out, filled, n);
            filled += n;
            playoutOffset += n;
            if (playoutOffset == head.length) {
                playout.pollFirst();
                playoutOffset = 0;
            }
        }
        playedSamples += filled;
        return out;
    }

    private synchronized void agentAudio(short[] samples) {
        long now = System.currentTimeMillis();
        agentAudio.add(new long[] {now, samples.length * 1000L / rate});
        lastAgentAudio = now;
        playout.addLast(samples);
        queuedSamples += samples.length;
        for (short s : samples) {
            agentSquares += (double) s * s;
        }
        agentSamples += samples.length;
    }

    private synchronized void cleared() {
        clears.add(System.currentTimeMillis());
        playout.clear();
        playoutOffset = 0;
        playedSamples = queuedSamples;
        List<Object[]> all = new ArrayList<>(pendingMarks);
        pendingMarks.clear();
        all.forEach(m -> echoMark((String) m[0]));
    }

    /** The agent's audio's loudness as received (dBFS), or NaN before any. */
    synchronized double agentDbfs() {
        return agentSamples == 0 ? Double.NaN : 20 * Math.log10(Math.sqrt(agentSquares / agentSamples) / 32768.0);
    }

    // ---- the phone's protocol (Twilio Media Streams) ----

    private synchronized void phoneMessage(String text) {
        JsonObject m = new JsonObject(text);
        switch (m.getString("event", "")) {
            case "media" -> agentAudio(G711.decode(Base64.getDecoder().decode(m.getJsonObject("media")
                    .getString("payload"))));
            case "mark" -> pendingMarks.add(new Object[] {m.getJsonObject("mark").getString("name"), queuedSamples});
            case "clear" -> cleared();
            default -> violations.add("an unknown event: " + text);
        }
    }

    private void echoMark(String name) {
        phone.writeTextMessage("{\"event\":\"mark\",\"sequenceNumber\":\"" + (++sequence) + "\",\"streamSid\":\""
                + SimulatedCaller.STREAM_SID + "\",\"mark\":{\"name\":\"" + name + "\"}}");
    }

    // ---- the browser's (the plain WebSocket route) ----

    private final class Listener implements WebSocket.Listener {
        private final StringBuilder text = new StringBuilder();
        private final ByteArrayOutputStream binary = new ByteArrayOutputStream();

        @Override
        public CompletionStage<?> onText(WebSocket ws, CharSequence data, boolean last) {
            text.append(data);
            if (last) {
                JsonObject m = new JsonObject(text.toString());
                text.setLength(0);
                if ("clear".equals(m.getString("type"))) {
                    cleared();
                }
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
                agentAudio(Pcm16.samples(binary.toByteArray()));
                binary.reset();
            }
            ws.request(1);
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket ws, int statusCode, String reason) {
            vertx.cancelTimer(timer);
            closed.complete(statusCode + " " + reason);
            return null;
        }

        @Override
        public void onError(WebSocket ws, Throwable error) {
            vertx.cancelTimer(timer);
            closed.complete("error " + error);
        }
    }

    /** The caller hangs up: Twilio's stop and close, or the browser route's hangup message. */
    synchronized void hangUp() {
        if (transport == Transport.PHONE) {
            if (phone != null && !phone.isClosed()) {
                phone.writeTextMessage("{\"event\":\"stop\",\"streamSid\":\"" + SimulatedCaller.STREAM_SID
                        + "\",\"stop\":{}}");
                phone.close();
            }
        } else if (browser != null && !browser.isOutputClosed()) {
            String hangup = new JsonObject().put("type", "hangup").encode();
            sending = sending.handle((v, e) -> null).thenCompose(v -> browser.sendText(hangup, true));
        }
    }

    void close() {
        vertx.cancelTimer(timer);
        if (phone != null && !phone.isClosed()) {
            phone.close();
        }
        if (phoneClient != null) {
            phoneClient.close();
        }
        if (browser != null) {
            browser.abort();
        }
        if (http != null) {
            http.shutdownNow();
        }
    }
}
