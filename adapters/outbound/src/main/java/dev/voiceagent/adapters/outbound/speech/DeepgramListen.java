package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * One call's Deepgram live transcription (v1/listen): the caller's audio as binary frames in its own encoding (μ-law 8
 * kHz from a phone, no transcoding) in messages of {@link #CHUNK_MS} ms, KeepAlive every 4 s (Deepgram closes a socket
 * silent for 10 s), Finalize when our voice activity hears the caller stop (the audio still pending sent first),
 * CloseStream at the end. Results become interim and final transcripts.
 *
 * <p>The socket outlives its connection ({@link ProviderSocket}): the caller's audio that no final transcript has
 * settled yet is kept (at most {@link #UNSETTLED_MS} of it), and every socket, the first and one opened again after a
 * drop, is sent that audio first, then the Finalize that had no answer yet: the audio said before the socket opened,
 * during a gap, and the line said across a drop reach the new socket, and what a final already settled is not sent
 * again, so nothing is transcribed twice. A final settles the audio up to its end ({@code start + duration} on the
 * socket's audio; everything sent when it has no times). The session is not told of a drop; only a provider that
 * cannot be reached again within the budget fails the stream. Usage counts the caller's audio once.
 *
 * <p>Flux models (v2/listen, their own end-of-turn detection) in its semi-manual mode: Flux ends turns itself and
 * our voice activity's stop forces the end of the turn ({@code ForceEndTurn}) where Flux is not yet sure, whichever
 * comes first. With its early end of turn on ({@code eager_eot_threshold}), an {@code EagerEndOfTurn} is already the
 * turn's final transcript, so the answer starts before Flux is sure; if the caller goes on ({@code TurnResumed}) our
 * voice activity hears it and cuts the answer, as any barge-in. The {@code EndOfTurn} that confirms an eager end
 * repeats its transcript and is not passed on; a turn's later finals pass on only the words after those already
 * given. {@code Update} and {@code StartOfTurn} transcripts are interim. An end of turn settles the audio up to its
 * {@code audio_window_end}: a socket opened again hears the turn in progress from its start (or from the eager end
 * already given). (The audio never pauses: no KeepAlive.)
 */
final class DeepgramListen extends ProviderSocket implements SpeechToText.Stream {

    /** The most caller audio kept for a socket opened again (the audio no final settled). */
    static final int UNSETTLED_MS = 15_000;
    /**
     * The caller's audio in one binary message: two of the call's 20 ms frames (LiveKit's agents send Deepgram 50 ms
     * chunks). A message for every frame cost the call's loop twice the socket writes and framing; this way an interim
     * result waits at most one frame longer, and the end of a line not at all (Finalize sends what is pending first).
     */
    static final int CHUNK_MS = 40;
    static final long KEEP_ALIVE_MS = 4_000;
    static final String KEEP_ALIVE = "{\"type\":\"KeepAlive\"}";
    static final String FINALIZE = "{\"type\":\"Finalize\"}";
    static final String CLOSE = "{\"type\":\"CloseStream\"}";
    static final String FORCE_END_TURN = "{\"type\":\"ForceEndTurn\"}";
    /** Flux's early end of turn: confident enough to start answering (its documented range is 0.3-0.9). */
    static final String EAGER_EOT_THRESHOLD = "0.5";

    private final SpeechToText.Listener listener;
    private final AudioFormat format;
    private final Vertx vertx;
    private final boolean flux;
    private final long keepAliveMs;
    /** The caller's audio not settled yet, and the Finalize (ForceEndTurn) that has no final yet. */
    private final UnsettledAudio unsettled = new UnsettledAudio();
    /** The caller's audio not sent yet: less than {@link #CHUNK_MS}. */
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    private long keepAlive = -1;
    private long bytes;
    private int fluxTurn = -1;
    private String fluxGiven = "";

    DeepgramListen(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            SpeechToText.Listener listener, boolean flux) {
        this(connect, vertx, budget, format, listener, flux, KEEP_ALIVE_MS);
    }

    DeepgramListen(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            SpeechToText.Listener listener, boolean flux, long keepAliveMs) {
        super(connect, vertx, budget, flux ? "Deepgram Flux" : "Deepgram");
        this.vertx = vertx;
        this.format = format;
        this.listener = listener;
        this.flux = flux;
        this.keepAliveMs = keepAliveMs;
        if (connect != null) {
            connect();
        }
    }

    /** A Flux model's address: v2/listen in the call's encoding, end-of-turn at Flux's default confidence. */
    static String fluxQuery(String model, String language, AudioFormat format) {
        return fluxQuery(model, language, format, List.of());
    }

    /** As above, with the words to expect (a workflow's dictionary) as Flux's keyterm prompting. */
    static String fluxQuery(String model, String language, AudioFormat format, List<String> keyterms) {
        StringBuilder q = new StringBuilder("/v2/listen?model=").append(model)
                .append("&encoding=").append(format.encoding() == AudioFormat.Encoding.MULAW ? "mulaw" : "linear16")
                .append("&sample_rate=").append(format.sampleRate()).append("&eot_threshold=0.7")
                .append("&eager_eot_threshold=").append(EAGER_EOT_THRESHOLD);
        if (model.endsWith("-multi") && language != null && !language.isBlank() && !"multi".equals(language)) {
            q.append("&language_hint=").append(URLEncoder.encode(language, StandardCharsets.UTF_8));
        }
        terms(q, "keyterm", keyterms);
        return q.toString();
    }

    static String query(String model, String language, AudioFormat format) {
        return query(model, language, format, List.of());
    }

    /**
     * A Nova (v1/listen) address; the words to expect go as {@code keyterm} to Nova-3 (keyterm prompting) and as
     * {@code keywords} to the models before it (keyword boosting), as Deepgram documents each.
     */
    static String query(String model, String language, AudioFormat format, List<String> keyterms) {
        StringBuilder q = new StringBuilder("/v1/listen?model=").append(model)
                .append("&encoding=").append(format.encoding() == AudioFormat.Encoding.MULAW ? "mulaw" : "linear16")
                .append("&sample_rate=").append(format.sampleRate())
                .append("&channels=1&interim_results=true&punctuate=true&endpointing=300");
        if (language != null && !language.isBlank()) {
            q.append("&language=").append(URLEncoder.encode(language, StandardCharsets.UTF_8));
        }
        terms(q, model.startsWith("nova-3") ? "keyterm" : "keywords", keyterms);
        return q.toString();
    }

    private static void terms(StringBuilder q, String parameter, List<String> terms) {
        for (String term : terms) {
            q.append('&').append(parameter).append('=').append(URLEncoder.encode(term, StandardCharsets.UTF_8));
        }
    }

    /** The socket opened: the audio not settled yet first (the Finalize still unanswered in its place). */
    @Override
    protected synchronized void opened(WebSocket ws) {
        fluxTurn = -1; // a new socket counts its turns from 0
        fluxGiven = "";
        unsettled.replay(frame -> ws.writeBinaryMessage(Buffer.buffer(frame)),
                () -> ws.writeTextMessage(flux ? FORCE_END_TURN : FINALIZE));
        if (!flux) {
            vertx.cancelTimer(keepAlive);
            keepAlive = vertx.setPeriodic(keepAliveMs, t -> keepAlive());
        }
    }

    @Override
    protected synchronized boolean dropped() {
        vertx.cancelTimer(keepAlive);
        keepAlive = -1;
        return true;
    }

    @Override
    protected void failed(String message) {
        if (keepAlive >= 0) {
            vertx.cancelTimer(keepAlive);
        }
        listener.failed(message);
    }

    private synchronized void keepAlive() {
        WebSocket ws = socket();
        if (!closed && ws != null) {
            ws.writeTextMessage(KEEP_ALIVE);
        }
    }

    @Override
    protected void message(String text) {
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        if (flux) {
            flux(json);
            return;
        }
        if (!"Results".equals(json.getString("type"))) {
            return; // Metadata, SpeechStarted, UtteranceEnd: our own voice activity decides turns
        }
        JsonObject channel = json.getJsonObject("channel");
        JsonArray alternatives = channel == null ? null : channel.getJsonArray("alternatives");
        String transcript = alternatives == null || alternatives.isEmpty() ? ""
                : alternatives.getJsonObject(0).getString("transcript", "");
        boolean isFinal = Boolean.TRUE.equals(json.getBoolean("is_final"));
        Object fromFinalize = json.getValue("from_finalize");
        if (isFinal) {
            settled(end(json.getValue("start"), json.getValue("duration")),
                    Boolean.TRUE.equals(fromFinalize) || fromFinalize == null);
        }
        // an empty final that answers a Finalize is news too: the recognizer has nothing more, so the turn can be
        // answered with what was heard (or a hold resumed) now, not after a wait
        if (!transcript.isBlank() || isFinal && Boolean.TRUE.equals(fromFinalize)) {
            listener.transcript(transcript, isFinal);
        }
    }

    /** Where a result's audio ends on the call's audio, or -1 when it does not say. */
    private synchronized long end(Object start, Object duration) {
        if (start instanceof Number s && duration instanceof Number d) {
            return unsettled.onSocket(Math.round((s.doubleValue() + d.doubleValue()) * format.bytes(1_000)));
        }
        return -1;
    }

    /** A final came: the audio up to {@code at} (all sent when -1) is settled; an answered Finalize is forgotten. */
    private synchronized void settled(long at, boolean answersFinalize) {
        unsettled.settle(at);
        if (answersFinalize) {
            unsettled.finalizeAnswered();
        }
    }

    private void flux(JsonObject json) {
        switch (json.getString("type", "")) {
            case "TurnInfo" -> {
                String transcript = json.getString("transcript", "").strip();
                String event = json.getString("event", "");
                int turn = json.getInteger("turn_index", -1);
                boolean ends = "EndOfTurn".equals(event) || "EagerEndOfTurn".equals(event);
                if (ends) {
                    Object windowEnd = json.getValue("audio_window_end");
                    settled(windowEnd instanceof Number n ? end(0, n) : -1, "EndOfTurn".equals(event));
                }
                if ("TurnResumed".equals(event)) {
                    return;
                }
                if (!ends) {
                    if (!transcript.isEmpty()) {
                        listener.transcript(transcript, false);
                    }
                    return;
                }
                String fresh = transcript.isEmpty() ? "" : freshWords(turn, transcript);
                if (!fresh.isEmpty() || "EndOfTurn".equals(event)) { // an end with nothing new: nothing more to wait for
                    listener.transcript(fresh, true);
                }
            }
            case "Error" -> giveUp("Deepgram Flux: " + json.getString("description", json.getString("code",
                    "an error")));
            default -> {
                // Connected, ConfigureSuccess / ConfigureFailure
            }
        }
    }

    /** The words of a Flux turn's final not given already in an earlier final of the same turn. */
    synchronized String freshWords(int turn, String transcript) {
        if (turn != fluxTurn) {
            fluxTurn = turn;
            fluxGiven = "";
        }
        String fresh = transcript.startsWith(fluxGiven) ? transcript.substring(fluxGiven.length()).strip() : transcript;
        fluxGiven = transcript;
        return fresh;
    }

    @Override
    public synchronized void audio(byte[] frame) {
        if (closed) {
            return;
        }
        bytes += frame.length;
        pending.writeBytes(frame);
        if (pending.size() >= format.bytes(CHUNK_MS)) {
            send();
        }
    }

    /** What is pending becomes one message: kept until a final settles it, and sent while a socket is open. */
    private void send() {
        if (pending.size() == 0) {
            return;
        }
        byte[] chunk = pending.toByteArray();
        pending.reset();
        unsettled.keep(chunk, format.bytes(UNSETTLED_MS));
        if (socket() != null) {
            writeBinary(chunk);
            unsettled.sent(chunk.length);
        }
    }

    @Override
    public synchronized void finalizeNow() {
        if (closed) {
            return;
        }
        send(); // the end of the line, before the Finalize that settles it
        unsettled.finalizeAsked();
        WebSocket ws = socket();
        if (ws != null) {
            ws.writeTextMessage(flux ? FORCE_END_TURN : FINALIZE);
        }
    }

    @Override
    public synchronized double seconds() {
        return bytes / (double) format.bytes(1_000);
    }

    @Override
    public synchronized void close() {
        if (!closed && socket() != null) {
            send();
        }
        if (keepAlive >= 0) {
            vertx.cancelTimer(keepAlive);
            keepAlive = -1;
        }
        shut(CLOSE, 2_000);
    }
}
