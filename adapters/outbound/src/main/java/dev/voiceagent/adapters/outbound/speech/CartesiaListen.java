package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One call's Cartesia realtime transcription ({@code /stt/websocket}, the manual-finalize endpoint: Cartesia's docs at
 * docs.cartesia.ai/api-reference/stt/stt and pipecat's services/cartesia/stt.py): the key in {@code X-API-Key} and the
 * installation's {@code Cartesia-Version}, the model and language, and the call's own encoding ({@code pcm_mulaw} at
 * 8 kHz from a phone, as it is; {@code pcm_s16le} at 16 kHz from a browser) as query parameters; the caller's audio as
 * binary messages of {@link ListenSocket#CHUNK_MS}; the bare text command {@code finalize} when our voice activity
 * hears the caller stop, {@code done} at the end (Cartesia answers {@code done} and closes). The workflow's dictionary
 * goes as repeated {@code keyterm} parameters to the ink-2 models, the only ones that honour them, within Cartesia's
 * {@link #MAX_KEYTERMS} terms of {@link #MAX_KEYTERM_CHARS} characters in all (a longer list would refuse the
 * connection). No keep-alive: Cartesia closes a socket idle for minutes, and the call's audio never pauses.
 *
 * <p>A {@code transcript} whose {@code is_final} is false is interim; Cartesia's texts are deltas since the last
 * final. Its answer to {@code finalize} is every final still owed, then {@code flush_done}: the finals that come
 * while a finalize waits are joined (verbatim, as Cartesia asks) into one final, passed on at its {@code flush_done}
 * (an empty one when there were none: the recognizer has nothing more, so the caller's turn is answered now, not after
 * a wait), which settles the audio sent before the finalize. A final Cartesia gives of itself, no finalize waiting, is
 * passed on as it comes and settles the audio sent so far. An {@code error} message with a 4xx status (a bad key,
 * model or parameter) fails the stream with Cartesia's words; any other drops the socket, which is opened again
 * ({@link ListenSocket}).
 */
final class CartesiaListen extends ListenSocket {

    static final String FINALIZE = "finalize";
    static final String DONE = "done";
    static final int MAX_KEYTERMS = 100;
    static final int MAX_KEYTERM_CHARS = 1_200;

    /** The finals given while a finalize waits for its flush_done, verbatim. */
    private final StringBuilder flushed = new StringBuilder();

    CartesiaListen(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            SpeechToText.Listener listener) {
        super(connect, vertx, budget, "Cartesia", format, true, listener);
        connect();
    }

    /** The session's address: model, language, the call's encoding and rate, the dictionary for ink-2 models. */
    static String query(String model, String language, AudioFormat format, List<String> keyterms) {
        StringBuilder q = new StringBuilder("/stt/websocket?model=").append(encode(model));
        if (language != null && !language.isBlank()) {
            q.append("&language=").append(encode(language));
        }
        q.append("&encoding=").append(format.encoding() == AudioFormat.Encoding.MULAW ? "pcm_mulaw" : "pcm_s16le")
                .append("&sample_rate=").append(format.sampleRate());
        if (model.startsWith("ink-2")) {
            for (String term : keyterms(keyterms)) {
                q.append("&keyterm=").append(encode(term));
            }
        }
        return q.toString();
    }

    /** The dictionary's terms within Cartesia's limits, in order: the first that fit. */
    static List<String> keyterms(List<String> terms) {
        List<String> kept = new ArrayList<>();
        int chars = 0;
        for (String term : terms.stream().map(String::strip).filter(t -> !t.isEmpty()).distinct().toList()) {
            if (kept.size() == MAX_KEYTERMS || chars + term.length() > MAX_KEYTERM_CHARS) {
                break;
            }
            kept.add(term);
            chars += term.length();
        }
        return kept;
    }

    /** Cartesia reads a space in a query parameter as %20, not +. */
    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
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
    protected synchronized void lost() {
        flushed.setLength(0); // not settled: the new socket hears that audio again
    }

    @Override
    protected synchronized void message(String text) {
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        switch (json.getString("type", "")) {
            case "transcript" -> {
                if (!closed) {
                    transcript(json);
                }
            }
            case "flush_done" -> {
                if (!closed && finalizing()) {
                    answered();
                    String said = flushed.toString().strip();
                    flushed.setLength(0);
                    listener.transcript(said, true);
                }
            }
            case "done" -> {
                WebSocket ws = socket();
                if (closed && ws != null) {
                    ws.close(); // the done we sent is answered: no need to wait for the grace
                }
            }
            case "error" -> error(json);
            default -> {
                // whatever comes later
            }
        }
    }

    private void transcript(JsonObject json) {
        String said = json.getValue("text") instanceof String s ? s : "";
        if (!Boolean.TRUE.equals(json.getBoolean("is_final"))) {
            String so = (flushed + said).strip();
            if (!so.isEmpty()) {
                listener.transcript(so, false);
            }
            return;
        }
        if (finalizing()) {
            flushed.append(said);
            return;
        }
        settle(-1);
        if (!said.isBlank()) {
            listener.transcript(said.strip(), true);
        }
    }

    private void error(JsonObject json) {
        String said = json.getValue("message") instanceof String m && !m.isBlank() ? m
                : json.getValue("error") instanceof String e && !e.isBlank() ? e
                : json.getString("title", "an error");
        Object status = json.getValue("status_code", json.getValue("code"));
        int code = status instanceof Number n ? n.intValue() : 0;
        if (code >= 400 && code < 500 && code != 408 && code != 429) {
            giveUp("Cartesia: " + said + " (" + code + ")");
            return;
        }
        WebSocket ws = socket();
        if (ws != null) {
            ws.close(); // the session is broken: a new socket hears the unsettled audio again
        }
    }

    @Override
    public void close() {
        end(DONE, 2_000);
    }
}
