package dev.voiceagent.deploy.support;

import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Loudness;
import dev.voiceagent.domain.audio.Pcm16;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import java.net.URI;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A phone caller as a carrier's media stream presents it to the service (test code), in Twilio Media Streams' dialect
 * or in Telnyx's (RTP bidirectional mode, PCMU or PCMA on the way in): it connects to the media address, says
 * connected and start (with the stream's id), then sends a 20 ms frame every 20 ms, its
 * scripted speech (real speech, synthesized by FreeTTS) or silence, like a phone line. It plays the
 * agent's audio in real time: each mark is echoed when the audio before it has played, a clear drops what was not
 * played and echoes the pending marks at once (as Twilio does). It records both sides with their times.
 */
public final class SimulatedCaller implements AutoCloseable {

    public static final String STREAM_SID = "MZ" + "0123456789abcdef".repeat(2);
    public static final String TELNYX_STREAM_ID = "32DE0DEA-53CB-4B21-89A4-9E1819C043BC";

    /** The carrier whose media protocol the caller speaks. */
    public enum Carrier {
        TWILIO, TELNYX,
        /** Plivo's audio stream protocol, which Vobiz speaks too. */
        PLIVO,
        /** Vonage's websocket: 16-bit PCM at 16 kHz in binary messages of 640 bytes, JSON text events. */
        VONAGE,
        /** Cloudonix's stream: Twilio Media Streams' messages (its own start), and no marks. */
        CLOUDONIX,
        /** Asterisk's chan_websocket (subprotocol media): binary μ-law, JSON control. */
        ASTERISK
    }

    /** A 20 ms frame of Vonage's silence (16 kHz PCM). */
    private static final byte[] PCM_SILENCE = new byte[640];

    public static final String ASTERISK_CHANNEL = "pbx1-1764410000.42";
    public static final String PLIVO_STREAM_ID = "20170ada-f610-433b-8758-c02a2aab3662";

    private final Carrier carrier;
    /** Telnyx's encoding of the caller's audio: PCMU, or PCMA (A-law, which the service must turn into μ-law). */
    private final String encoding;

    private final Vertx vertx;
    private final WebSocketClient client;
    private WebSocket socket;
    private long timer = -1;
    private final Deque<byte[]> script = new ArrayDeque<>();
    private long frameIndex;
    private long mediaFrames;
    private long playedUntil;
    private final List<Object[]> pendingMarks = new ArrayList<>();

    /**
     * When each line's voice began and ended (its first and last frames louder than {@link #VOICED_DBFS}; ms, this
     * process's clock): the caller's first and last speech frames as the benchmark's definitions take them.
     */
    public final List<long[]> speech = new ArrayList<>();
    /** When each agent media frame arrived. */
    public final List<Long> agentFrames = new ArrayList<>();
    public final List<Long> clears = new ArrayList<>();
    /** Each agent frame's level (dBFS), beside {@link #agentFrames}. */
    public final List<Double> agentLevels = new ArrayList<>();
    /** Agent frames that arrived after the caller's playback had run dry in the middle of a sentence. */
    public int underruns;
    /** Sentences whose audio came after the previous sentence had played (a pause between them, not a glitch). */
    public int sentencePauses;
    private boolean sentenceEnded;
    public final List<String> marksEchoed = new ArrayList<>();
    public final List<String> violations = new ArrayList<>();
    public final CompletableFuture<String> closed = new CompletableFuture<>();
    private boolean speaking;

    public SimulatedCaller(Vertx vertx) {
        this(vertx, Carrier.TWILIO, "PCMU");
    }

    public SimulatedCaller(Vertx vertx, Carrier carrier, String encoding) {
        this.vertx = vertx;
        this.client = vertx.createWebSocketClient();
        this.carrier = carrier;
        this.encoding = encoding;
    }

    /** Connects to the media URL (ws://...); the upgrade's refusal status is the failure's message. */
    private boolean resumable;

    /**
     * The stream's TwiML marked it resumable (its {@code <Parameter name="resumable">}), so its start message says so,
     * as Twilio passes a stream's parameters on.
     */
    public SimulatedCaller resumable() {
        this.resumable = true;
        return this;
    }

    /** The caller's side of the stream ends without a stop message (Twilio's socket to a replica that went away). */
    public synchronized void drop() {
        if (socket != null && !socket.isClosed()) {
            socket.close();
        }
    }

    public SimulatedCaller connect(String url) throws Exception {
        URI uri = URI.create(url);
        WebSocketConnectOptions options = new WebSocketConnectOptions().setHost(uri.getHost()).setPort(uri.getPort())
                .setURI(uri.getRawQuery() == null ? uri.getRawPath() : uri.getRawPath() + "?" + uri.getRawQuery());
        if (carrier == Carrier.ASTERISK) {
            options.addSubProtocol("media"); // as chan_websocket asks for it
        }
        socket = client.connect(options).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        socket.textMessageHandler(this::message);
        socket.binaryMessageHandler(b -> {
            if (carrier == Carrier.VONAGE) {
                vonageAudio(b.getBytes());
            } else if (carrier == Carrier.ASTERISK) {
                asteriskAudio(b.getBytes());
            } else {
                violations.add("a binary frame (carriers take text frames only)");
            }
        });
        socket.closeHandler(v -> {
            vertx.cancelTimer(timer);
            closed.complete(socket.closeReason());
        });
        if (carrier == Carrier.TELNYX) {
            socket.writeTextMessage("{\"event\":\"connected\",\"version\":\"1.0.0\"}");
            socket.writeTextMessage(new JsonObject().put("event", "start").put("sequence_number", "1")
                    .put("stream_id", TELNYX_STREAM_ID).put("start", new JsonObject()
                            .put("user_id", "3E6F995F-85F7-4705-9741-53B116D28237")
                            .put("call_control_id", "v3:call-control-1").put("call_session_id", "session-1")
                            .put("from", "+14155552671").put("to", "+442071838750")
                            .put("custom_parameters", new JsonObject())
                            .put("media_format", new JsonObject().put("encoding", encoding).put("sample_rate", 8000)
                                    .put("channels", 1))).encode());
            timer = vertx.setPeriodic(20, t -> tick());
            return this;
        }
        if (carrier == Carrier.VONAGE) { // websocket:connected with the NCCO's headers, then binary audio
            socket.writeTextMessage(new JsonObject().put("event", "websocket:connected")
                    .put("content-type", "audio/l16;rate=16000").put("call_uuid", "vonage-call-1").encode());
            timer = vertx.setPeriodic(20, t -> tick());
            return this;
        }
        if (carrier == Carrier.PLIVO) { // no connected message: the start comes first
            socket.writeTextMessage(new JsonObject().put("sequenceNumber", 0).put("event", "start").put("start",
                    new JsonObject().put("callId", "plivo-call-1").put("streamId", PLIVO_STREAM_ID)
                            .put("accountId", "MA1").put("tracks", List.of("inbound"))
                            .put("mediaFormat", new JsonObject().put("encoding", "audio/x-mulaw")
                                    .put("sampleRate", 8000))).put("extra_headers", "{}").encode());
            timer = vertx.setPeriodic(20, t -> tick());
            return this;
        }
        if (carrier == Carrier.ASTERISK) {
            if (!"media".equals(socket.subProtocol())) {
                violations.add("the server did not agree to the media subprotocol: " + socket.subProtocol());
            }
            socket.writeTextMessage(new JsonObject().put("event", "MEDIA_START").put("connection_id", "conn-1")
                    .put("channel", "WebSocket/conn-1").put("channel_id", ASTERISK_CHANNEL).put("format", "ulaw")
                    .put("optimal_frame_size", 160).put("ptime", 20).put("channel_variables", new JsonObject())
                    .encode());
            timer = vertx.setPeriodic(20, t -> tick());
            return this;
        }
        if (carrier == Carrier.CLOUDONIX) { // as Cloudonix's own serializer's test shows it
            socket.writeTextMessage("{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}");
            socket.writeTextMessage(new JsonObject().put("event", "start").put("start", new JsonObject()
                    .put("streamSid", STREAM_SID).put("callSid", "call-123").put("session", "session-123")
                    .put("accountSid", "acme.cloudonix.net").put("from", "+15551230001").put("to", "+15551230002")
                    .put("tracks", List.of("inbound")).put("mediaFormat", new JsonObject()
                            .put("encoding", "audio/x-mulaw").put("sampleRate", 8000).put("channels", 1))
                    .put("customParameters", new JsonObject())).encode());
            timer = vertx.setPeriodic(20, t -> tick());
            return this;
        }
        socket.writeTextMessage("{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}");
        socket.writeTextMessage(new JsonObject().put("event", "start").put("sequenceNumber", "1")
                .put("streamSid", STREAM_SID).put("start", new JsonObject().put("streamSid", STREAM_SID)
                        .put("accountSid", "AC1").put("callSid", "CA1").put("tracks", List.of("inbound"))
                        .put("customParameters", resumable ? new JsonObject().put("workflow_run_id", "1")
                                .put("resumable", "true") : new JsonObject().put("workflow_run_id", "1"))
                        .put("mediaFormat", new JsonObject().put("encoding", "audio/x-mulaw")
                                .put("sampleRate", 8000).put("channels", 1))).encode());
        timer = vertx.setPeriodic(20, t -> tick());
        return this;
    }

    /** The caller says {@code line} (real speech: {@link Speech}), after what is already scripted. */
    public synchronized SimulatedCaller says(String line) {
        boolean pcm = carrier == Carrier.VONAGE;
        byte[] audio = pcm ? Speech.pcm16k(line) : Speech.mulaw(line);
        int size = pcm ? 640 : 160;
        int first = -1;
        int last = -1;
        for (int at = 0, i = 0; at < audio.length; at += size, i++) {
            byte[] frame = Arrays.copyOfRange(audio, at, at + size);
            if (Loudness.dbfs(pcm ? Pcm16.samples(frame) : G711.decode(frame)) > VOICED_DBFS) {
                first = first < 0 ? i : first;
                last = i;
            }
            script.addLast(frame);
        }
        voicedFrames.addLast(new int[] {first, last});
        return this;
    }

    /** A frame louder than this is the caller's voice (the synthesizer's lead-in and tail are quieter). */
    public static final double VOICED_DBFS = -45;
    private final Deque<int[]> voicedFrames = new ArrayDeque<>();
    private int lineFrame = -1;
    private int[] line;

    /** The caller is silent for {@code ms}. */
    public synchronized SimulatedCaller pauses(int ms) {
        for (int t = 0; t < ms; t += 20) {
            script.addLast(silence());
        }
        return this;
    }

    private static final byte[] SILENCE = new byte[160];

    private byte[] silence() {
        return carrier == Carrier.VONAGE ? PCM_SILENCE : SILENCE;
    }
    /** A loud buzz (full-scale square wave): what a late frame carries, so that hearing one would show. */
    private static final byte[] LATE = new byte[160];

    static {
        Arrays.fill(SILENCE, (byte) 0xFF);
        for (int i = 0; i < LATE.length; i++) {
            LATE[i] = (byte) (i / 4 % 2 == 0 ? 0x80 : 0x00);
        }
    }

    private synchronized void tick() {
        long now = System.currentTimeMillis();
        byte[] frame = script.isEmpty() ? silence() : script.pollFirst();
        boolean inLine = frame != silence();
        if (inLine && !speaking) {
            lineFrame = 0; // a line begins: its voiced part starts and ends where its loudness says
            line = voicedFrames.pollFirst();
            speech.add(new long[] {-1, -1});
        }
        if (inLine) {
            if (lineFrame == line[0]) {
                speech.getLast()[0] = now;
            }
            if (lineFrame == line[1]) {
                speech.getLast()[1] = now + 20;
            }
            lineFrame++;
        }
        speaking = inLine;
        frameIndex++;
        mediaFrames++;
        if (carrier == Carrier.VONAGE || carrier == Carrier.ASTERISK) {
            socket.writeBinaryMessage(Buffer.buffer(frame));
        } else if (carrier == Carrier.PLIVO) {
            socket.writeTextMessage("{\"sequenceNumber\":" + (frameIndex + 1) + ",\"streamId\":\"" + PLIVO_STREAM_ID
                    + "\",\"event\":\"media\",\"media\":{\"track\":\"inbound\",\"timestamp\":\"" + frameIndex * 20
                    + "\",\"chunk\":" + frameIndex + ",\"payload\":\"" + Base64.getEncoder().encodeToString(frame)
                    + "\"},\"extra_headers\":\"{}\"}");
        } else if (carrier == Carrier.TELNYX) {
            byte[] sent = frame;
            if ("PCMA".equals(encoding)) {
                sent = new byte[frame.length];
                for (int i = 0; i < frame.length; i++) {
                    sent[i] = G711.encodeAlaw(G711.decode(
                            frame[i]));
                }
            }
            socket.writeTextMessage("{\"event\":\"media\",\"sequence_number\":\"" + (frameIndex + 1)
                    + "\",\"media\":{\"track\":\"inbound\",\"chunk\":\"" + frameIndex + "\",\"timestamp\":\""
                    + frameIndex * 20 + "\",\"payload\":\"" + Base64.getEncoder().encodeToString(sent)
                    + "\"},\"stream_id\":\"" + TELNYX_STREAM_ID + "\"}");
            if (frameIndex % 50 == 0) { // Telnyx does not promise order: now and then a frame comes again, late
                socket.writeTextMessage("{\"event\":\"media\",\"sequence_number\":\"" + frameIndex
                        + "\",\"media\":{\"track\":\"inbound\",\"chunk\":\"" + (frameIndex - 1)
                        + "\",\"payload\":\"" + Base64.getEncoder().encodeToString(LATE) + "\"},\"stream_id\":\""
                        + TELNYX_STREAM_ID + "\"}");
            }
        } else {
        socket.writeTextMessage("{\"event\":\"media\",\"sequenceNumber\":\"" + (frameIndex + 1) + "\",\"media\":{"
                + "\"track\":\"inbound\",\"chunk\":\"" + frameIndex + "\",\"timestamp\":\"" + frameIndex * 20
                + "\",\"payload\":\"" + Base64.getEncoder().encodeToString(frame) + "\"},\"streamSid\":\"" + STREAM_SID
                + "\"}");
        }
        // marks whose audio has played
        List<Object[]> due = new ArrayList<>();
        for (Object[] m : pendingMarks) {
            if ((long) m[1] <= now) {
                due.add(m);
            }
        }
        pendingMarks.removeAll(due);
        due.forEach(m -> echo((String) m[0]));
    }

    private synchronized void message(String text) {
        JsonObject m = new JsonObject(text);
        if (carrier == Carrier.CLOUDONIX && "mark".equals(m.getString("event"))) {
            violations.add("a mark: Cloudonix takes none");
        }
        if ((carrier == Carrier.TWILIO || carrier == Carrier.CLOUDONIX) && !STREAM_SID.equals(m.getString("streamSid"))) {
            violations.add("a message without this stream's streamSid: " + text);
        }
        if (carrier == Carrier.TELNYX && m.containsKey("streamSid")) {
            violations.add("a Twilio message on a Telnyx stream: " + text);
        }
        long now = System.currentTimeMillis();
        if (carrier == Carrier.PLIVO) {
            plivo(m, text, now);
            return;
        }
        if (carrier == Carrier.VONAGE) {
            vonage(m, text, now);
            return;
        }
        if (carrier == Carrier.ASTERISK) {
            asterisk(m, text, now);
            return;
        }
        switch (m.getString("event", "")) {
            case "media" -> {
                byte[] audio = Base64.getDecoder().decode(m.getJsonObject("media").getString("payload"));
                heard(now, audio.length / 8, Loudness.dbfs(G711.decode(audio)));
            }
            case "mark" -> {
                String name = m.getJsonObject("mark").getString("name");
                sentenceEnded = name.startsWith("s"); // the service names a sentence's end mark s<n>
                pendingMarks.add(new Object[] {name, Math.max(playedUntil, now)});
            }
            case "clear" -> {
                clears.add(now);
                playedUntil = now;
                List<Object[]> all = new ArrayList<>(pendingMarks);
                pendingMarks.clear();
                all.forEach(mark -> echo((String) mark[0]));
            }
            default -> violations.add("an unknown event: " + text);
        }
    }

    /**
     * Plivo's side: playAudio (μ-law at 8 kHz, as the XML asked; anything else is refused as Plivo would not play it),
     * checkpoint (echoed as playedStream once the audio before it played) and clearAudio (answered clearedAudio; the
     * pending checkpoints are dropped with the audio), each with this stream's streamId.
     */
    private void plivo(JsonObject m, String text, long now) {
        if (!PLIVO_STREAM_ID.equals(m.getString("streamId"))) {
            violations.add("a message without this stream's streamId: " + text);
        }
        switch (m.getString("event", "")) {
            case "playAudio" -> {
                JsonObject media = m.getJsonObject("media", new JsonObject());
                if (!"audio/x-mulaw".equals(media.getString("contentType"))
                        || media.getInteger("sampleRate", 0) != 8000) {
                    violations.add("audio Plivo would not play on this stream: " + text);
                    return;
                }
                byte[] audio = Base64.getDecoder().decode(media.getString("payload"));
                heard(now, audio.length / 8, Loudness.dbfs(G711.decode(audio)));
            }
            case "checkpoint" -> {
                String name = m.getString("name");
                if (name == null) {
                    violations.add("a checkpoint without a name: " + text);
                    return;
                }
                sentenceEnded = name.startsWith("s");
                pendingMarks.add(new Object[] {name, Math.max(playedUntil, now)});
            }
            case "clearAudio" -> {
                clears.add(now);
                playedUntil = now;
                pendingMarks.clear();
                socket.writeTextMessage("{\"sequenceNumber\":" + (++frameIndex) + ",\"event\":\"clearedAudio\","
                        + "\"streamId\":\"" + PLIVO_STREAM_ID + "\"}");
            }
            default -> violations.add("an event Plivo does not take: " + text);
        }
    }

    /** Asterisk's μ-law: the optimal frame size (160 bytes) or a multiple of it; anything else is partly dropped. */
    private synchronized void asteriskAudio(byte[] audio) {
        long now = System.currentTimeMillis();
        if (audio.length == 0 || audio.length % 160 != 0) {
            violations.add("an Asterisk media message of " + audio.length + " bytes, not a multiple of 160");
            return;
        }
        heard(now, audio.length / 8, Loudness.dbfs(G711.decode(audio)));
    }

    /** Asterisk's commands (JSON, case-sensitive): MARK_MEDIA, FLUSH_MEDIA, HANGUP. */
    private void asterisk(JsonObject m, String text, long now) {
        switch (m.getString("command", "")) {
            case "MARK_MEDIA" -> {
                String id = m.getString("correlation_id");
                sentenceEnded = id != null && id.startsWith("s");
                pendingMarks.add(new Object[] {id, Math.max(playedUntil, now)});
            }
            case "FLUSH_MEDIA" -> {
                clears.add(now);
                playedUntil = now;
                pendingMarks.clear();
            }
            case "HANGUP" -> {
                hungUpByAgent = true;
                socket.close();
            }
            default -> violations.add("a command chan_websocket does not take: " + text);
        }
    }

    /** The agent's side sent Asterisk's HANGUP (Asterisk then hangs up and closes the socket). */
    public volatile boolean hungUpByAgent;

    /** Vonage's audio: 20 ms of 16 kHz PCM per message (Vonage drops a socket that sends other sizes). */
    private synchronized void vonageAudio(byte[] audio) {
        long now = System.currentTimeMillis();
        if (audio.length != 640) {
            violations.add("a Vonage audio message of " + audio.length + " bytes, not 640");
            return;
        }
        heard(now, 20, Loudness.dbfs(Pcm16.samples(audio)));
    }

    /**
     * The agent's audio of {@code ms} arrived at {@code now}: played after what was queued, in real time; counted as an
     * underrun when it came after the caller's playback ran dry mid-sentence, or a pause between sentences.
     */
    private void heard(long now, long ms, double level) {
        if (!agentFrames.isEmpty() && now - agentFrames.getLast() < 100 && playedUntil + 20 < now) {
            if (sentenceEnded) {
                sentencePauses++; // the next sentence came after the last one had played: a pause
            } else {
                underruns++; // mid-sentence, the audio came later than the caller's ear needed it
            }
        }
        sentenceEnded = false;
        agentFrames.add(now);
        agentLevels.add(level);
        playedUntil = Math.max(playedUntil, now) + ms;
    }

    /**
     * Vonage's actions: notify (its payload echoed as websocket:notify once the audio before it played) and clear
     * (answered websocket:cleared; what was queued is dropped, its notifies with it).
     */
    private void vonage(JsonObject m, String text, long now) {
        switch (m.getString("action", "")) {
            case "notify" -> {
                JsonObject payload = m.getJsonObject("payload");
                if (payload == null || payload.getString("name") == null) {
                    violations.add("a notify without the payload this caller echoes: " + text);
                    return;
                }
                sentenceEnded = payload.getString("name").startsWith("s");
                pendingMarks.add(new Object[] {payload.getString("name"), Math.max(playedUntil, now)});
            }
            case "clear" -> {
                clears.add(now);
                playedUntil = now;
                pendingMarks.clear();
                socket.writeTextMessage("{\"event\":\"websocket:cleared\"}");
            }
            default -> violations.add("an action Vonage does not take: " + text);
        }
    }

    private void echo(String name) {
        marksEchoed.add(name);
        if (carrier == Carrier.ASTERISK) {
            socket.writeTextMessage(new JsonObject().put("event", "MEDIA_MARK_PROCESSED").put("channel_id",
                    ASTERISK_CHANNEL).put("correlation_id", name).encode());
            return;
        }
        if (carrier == Carrier.VONAGE) {
            socket.writeTextMessage("{\"event\":\"websocket:notify\",\"payload\":{\"name\":\"" + name + "\"}}");
            return;
        }
        if (carrier == Carrier.PLIVO) {
            socket.writeTextMessage("{\"event\":\"playedStream\",\"sequenceNumber\":" + (++frameIndex)
                    + ",\"streamId\":\"" + PLIVO_STREAM_ID + "\",\"name\":\"" + name + "\"}");
            return;
        }
        if (carrier == Carrier.TELNYX) {
            socket.writeTextMessage("{\"event\":\"mark\",\"sequence_number\":\"" + (++frameIndex)
                    + "\",\"stream_id\":\"" + TELNYX_STREAM_ID + "\",\"mark\":{\"name\":\"" + name + "\"}}");
            return;
        }
        socket.writeTextMessage("{\"event\":\"mark\",\"sequenceNumber\":\"" + (++frameIndex) + "\",\"streamSid\":\""
                + STREAM_SID + "\",\"mark\":{\"name\":\"" + name + "\"}}");
    }

    /** The caller hangs up: Twilio says stop and closes. */
    public synchronized void hangUp() {
        if (carrier == Carrier.PLIVO || carrier == Carrier.VONAGE || carrier == Carrier.ASTERISK) {
            // no stop: the call's end closes the stream
            drop();
            return;
        }
        if (socket != null && !socket.isClosed()) {
            socket.writeTextMessage(carrier == Carrier.TELNYX ? "{\"event\":\"stop\",\"sequence_number\":\""
                    + (++frameIndex) + "\",\"stream_id\":\"" + TELNYX_STREAM_ID + "\",\"stop\":{\"call_control_id\":"
                    + "\"v3:call-control-1\"}}"
                    : "{\"event\":\"stop\",\"streamSid\":\"" + STREAM_SID + "\",\"stop\":{}}");
            socket.close();
        }
    }

    /** The levels (dBFS) of the agent's frames that arrived from {@code from} to {@code to}. */
    public synchronized List<Double> agentLevelsBetween(long from, long to) {
        List<Double> levels = new ArrayList<>();
        for (int i = 0; i < agentFrames.size(); i++) {
            if (agentFrames.get(i) >= from && agentFrames.get(i) < to) {
                levels.add(agentLevels.get(i));
            }
        }
        return levels;
    }

    /** Whether everything scripted (lines and pauses) has been sent. */
    public synchronized boolean scriptPlayed() {
        return script.isEmpty();
    }

    /** The caller's media frames sent so far (20 ms each): the audio the call streamed to the service. */
    public synchronized long mediaFramesSent() {
        return mediaFrames;
    }

    /** Agent frames that arrived in [from, to). */
    public synchronized long agentFramesBetween(long from, long to) {
        return agentFrames.stream().filter(t -> t >= from && t < to).count();
    }

    /** The first agent frame at or after {@code from}, or -1. */
    public synchronized long firstAgentFrameAfter(long from) {
        return agentFrames.stream().filter(t -> t >= from).findFirst().orElse(-1L);
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
