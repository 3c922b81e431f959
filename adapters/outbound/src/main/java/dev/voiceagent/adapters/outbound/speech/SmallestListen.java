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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Supplier;

/**
 * One call's Smallest AI Pulse transcription ({@code /waves/v1/stt/live}, the unified live endpoint pipecat's
 * services/smallest/stt.py speaks; its messages are those of Smallest's Pulse WebSocket reference, the AsyncAPI of
 * smallest-inc/smallest-ai-documentation, fern/apis/waves/asyncapi/pulse-stt-ws.yaml): the key as
 * {@code Authorization: Bearer}; the model, language, the call's own encoding ({@code mulaw} at 8 kHz from a phone, as
 * it is; {@code linear16} at 16 kHz from a browser) and word timestamps as query parameters; the caller's audio as
 * binary messages of {@link ListenSocket#CHUNK_MS}; {@code {"type":"finalize"}} when our voice activity hears the
 * caller stop, {@code {"type":"close_stream"}} at the end (Smallest answers with its last transcript,
 * {@code is_last}, and closes). The workflow's dictionary goes as {@code keywords}, one comma-separated string of
 * {@code term:}{@link #INTENSIFIER} (at most {@link #MAX_KEYWORDS}; a term holding a comma or a colon cannot be said in
 * it and is left out). No keep-alive: Smallest closes a socket that hears no audio for 30 s, and the call's audio never
 * pauses.
 *
 * <p>A transcript whose {@code is_final} is false is interim. A final with {@code from_finalize} answers the finalize
 * (an empty one too: the recognizer has nothing more, so the caller's turn is answered now, not after a wait) and
 * settles the audio sent before it; one Smallest gives of itself (after its end-of-utterance silence, or every few
 * words) is passed on as it comes and settles the audio up to its last word's end (seconds from the socket's first
 * audio; everything sent when it has no words). An {@code error} message fails the stream with Smallest's words, as
 * does a close for its concurrency limit (1008); a socket that drops otherwise is opened again ({@link ListenSocket}).
 */
final class SmallestListen extends ListenSocket {

    static final String FINALIZE = "{\"type\":\"finalize\"}";
    static final String CLOSE = "{\"type\":\"close_stream\"}";
    static final int MAX_KEYWORDS = 100;
    /** The boost of a dictionary's term: within the 3-6 Smallest suggests starting from (10 and above hallucinate). */
    static final int INTENSIFIER = 4;
    /** The close Smallest ends a session with when the organization has too many open. */
    static final short CONCURRENCY_LIMIT = 1008;

    SmallestListen(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            SpeechToText.Listener listener) {
        super(connect, vertx, budget, "Smallest AI", format, true, listener);
        connect();
    }

    /** The session's address: model, language, the call's encoding and rate, word timestamps, the dictionary. */
    static String query(String model, String language, AudioFormat format, List<String> keyterms) {
        StringBuilder q = new StringBuilder("/waves/v1/stt/live?model=")
                .append(URLEncoder.encode(model, StandardCharsets.UTF_8))
                .append("&language=").append(URLEncoder.encode(language, StandardCharsets.UTF_8))
                .append("&encoding=").append(format.encoding() == AudioFormat.Encoding.MULAW ? "mulaw" : "linear16")
                .append("&sample_rate=").append(format.sampleRate()).append("&word_timestamps=true");
        List<String> terms = keyterms.stream().map(String::strip)
                .filter(t -> !t.isEmpty() && t.indexOf(',') < 0 && t.indexOf(':') < 0).distinct()
                .limit(MAX_KEYWORDS).map(t -> t + ":" + INTENSIFIER).toList();
        if (!terms.isEmpty()) {
            q.append("&keywords=").append(URLEncoder.encode(String.join(",", terms), StandardCharsets.UTF_8));
        }
        return q.toString();
    }

    @Override
    protected void sendAudio(WebSocket ws, byte[] chunk) {
        ws.writeBinaryMessage(Buffer.buffer(chunk));
    }

    @Override
    protected void sendFinalize(WebSocket ws) {
        ws.writeTextMessage(FINALIZE);
    }

    @Override
    protected boolean refusal(Short code) {
        return code != null && code == CONCURRENCY_LIMIT;
    }

    @Override
    protected synchronized void message(String text) {
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        if ("error".equals(json.getString("type")) || "error".equals(json.getString("status"))) {
            JsonObject error = json.getValue("error") instanceof JsonObject e ? e : new JsonObject();
            String said = json.getValue("message") instanceof String m && !m.isBlank() ? m
                    : error.getString("message", json.getValue("error") instanceof String e ? e : "an error");
            giveUp("Smallest AI: " + said);
            return;
        }
        if (Boolean.TRUE.equals(json.getBoolean("is_last"))) {
            WebSocket ws = socket();
            if (closed && ws != null) {
                ws.close(); // the close_stream we sent is answered: no need to wait for the grace
            }
        }
        if (closed || !json.containsKey("is_final")) {
            return; // speech_started / speech_ended, or whatever comes later
        }
        String said = (json.getValue("transcript") instanceof String s ? s
                : json.getValue("transcription") instanceof String t ? t : "").strip();
        if (!Boolean.TRUE.equals(json.getBoolean("is_final"))) {
            if (!said.isEmpty()) {
                listener.transcript(said, false);
            }
            return;
        }
        Object fromFinalize = json.getValue("from_finalize");
        if (Boolean.TRUE.equals(fromFinalize) || fromFinalize == null && finalizing()) {
            answered();
            listener.transcript(said, true);
            return;
        }
        settle(end(json.getValue("words") instanceof JsonArray w ? w : new JsonArray()));
        if (!said.isEmpty()) {
            listener.transcript(said, true);
        }
    }

    /** Where a final's last word ends on the call's audio, or -1 when it has no words. */
    private long end(JsonArray words) {
        for (int i = words.size() - 1; i >= 0; i--) {
            if (words.getValue(i) instanceof JsonObject w && w.getValue("end") instanceof Number end) {
                return onSocket(end.doubleValue());
            }
        }
        return -1;
    }

    @Override
    public void close() {
        end(CLOSE, 2_000);
    }
}
