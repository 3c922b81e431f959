package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.Deque;
import java.util.function.Supplier;

/**
 * One call's Sarvam streaming text-to-speech WebSocket
 * ({@code /text-to-speech/ws?model=...&send_completion_event=true}, the key in the {@code api-subscription-key}
 * header), opened when the call starts and kept warm. As Sarvam's protocol has it (docs.sarvam.ai, Text-to-Speech
 * streaming API and its WebSocket reference, whose wire protocol its voice-cloning WebSocket page restates; pipecat's
 * services/sarvam/tts.py): every socket first hears a {@code config} message (the speaker, the language, the pace, the
 * call's own format: {@code mulaw} at 8 kHz on the phone, {@code linear16} at 16 kHz in a browser, so nothing is
 * transcoded); a sentence is a {@code text} message then a {@code flush}; its audio comes back as {@code audio}
 * messages (base64) and its end as the {@code final} event the query asks for; an {@code error} message fails the
 * stream with Sarvam's words; a {@code ping} every {@link #KEEP_ALIVE} keeps an idle socket open.
 *
 * <p>Sarvam's messages name no sentence, so sentences go one at a time: the next is sent when the last one's
 * {@code final} comes. Sarvam has no message that stops a sentence: a barge-in on the sentence being spoken closes the
 * socket (as ours: no failure counts) and opens another at once, the next sentence spoken on it; a sentence still
 * waiting is simply not sent. A socket that drops with a sentence in flight is opened again at once and the sentence
 * spoken again on it, after a {@link TextToSpeech.Listener#restart restart} when some of its audio had come; one idle
 * is opened again on the next sentence ({@link WarmSocket}). A sentence's characters count when its {@code final}
 * comes, or when it is cancelled after some of its audio came ({@link TextToSpeech.Stream#characters()}).
 */
final class SarvamStream extends WarmSocket implements TextToSpeech.Stream {

    /** How often an open socket is pinged (pipecat's keep-alive for Sarvam). */
    static final Duration KEEP_ALIVE = Duration.ofSeconds(20);
    private static final Base64.Decoder DECODE = Base64.getDecoder();
    private static final String FLUSH = new JsonObject().put("type", "flush").encode();
    private static final String PING = new JsonObject().put("type", "ping").encode();

    private final Vertx vertx;
    private final String config;
    private final long pinger;
    /** Sentences not sent yet: utterance and text. */
    private final Deque<String[]> waiting = new ArrayDeque<>();
    /** The sentence sent whose {@code final} has not come, or null. */
    private String[] current;
    /** Whether some of the current sentence's audio came (since it was last sent). */
    private boolean delivered;
    private long characters;

    /**
     * @param config what every socket is configured with ({@link #config})
     */
    SarvamStream(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, JsonObject config,
            Duration keepAlive, TextToSpeech.Listener listener) {
        super(connect, vertx, budget, "Sarvam", listener);
        this.vertx = vertx;
        this.config = new JsonObject().put("type", "config").put("data", config).encode();
        this.pinger = vertx.setPeriodic(keepAlive.toMillis(), id -> ping());
        connect();
    }

    /**
     * The {@code config} message's data: the speaker and the language as configured, the pace when one is set, and the
     * call's format ({@code speech_sample_rate} as a string, as Sarvam's WebSocket takes it).
     */
    static JsonObject config(String speaker, String language, Double pace, AudioFormat format) {
        JsonObject data = new JsonObject().put("target_language_code", language).put("speaker", speaker)
                .put("speech_sample_rate", String.valueOf(format.sampleRate()))
                .put("output_audio_codec", format.encoding() == AudioFormat.Encoding.MULAW ? "mulaw" : "linear16");
        if (pace != null) {
            data.put("pace", pace);
        }
        return data;
    }

    @Override
    protected synchronized boolean inFlight() {
        return current != null;
    }

    /** A socket opened: configured, then the sentence in flight spoken again, or the next one. */
    @Override
    protected synchronized void opened(WebSocket ws) {
        ws.writeTextMessage(config);
        if (current == null) {
            current = waiting.pollFirst();
            delivered = false;
        } else if (delivered) {
            delivered = false;
            listener.restart(current[0]);
        }
        if (current != null) {
            send(ws, current[1]);
        }
    }

    private static void send(WebSocket ws, String text) {
        ws.writeTextMessage(new JsonObject().put("type", "text").put("data", new JsonObject().put("text", text))
                .encode());
        ws.writeTextMessage(FLUSH);
    }

    /** Sends the next waiting sentence when none is in flight (with no socket open, the one that opens sends it). */
    private void next() {
        if (closed || current != null || waiting.isEmpty()) {
            return;
        }
        WebSocket ws = socket();
        if (ws == null) {
            connect();
            return;
        }
        current = waiting.pollFirst();
        delivered = false;
        send(ws, current[1]);
    }

    @Override
    protected void message(String text) {
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException | ClassCastException notJson) {
            return;
        }
        JsonObject data = json.getValue("data") instanceof JsonObject d ? d : new JsonObject();
        switch (json.getString("type", "")) {
            case "audio" -> {
                byte[] audio;
                try {
                    audio = DECODE.decode(data.getValue("audio") instanceof String s ? s : "");
                } catch (IllegalArgumentException notBase64) {
                    giveUp("Sarvam: sent audio that is not base64");
                    return;
                }
                String utterance = audio.length == 0 ? null : playing();
                if (utterance != null) {
                    listener.audio(utterance, audio);
                }
            }
            case "event" -> {
                if ("final".equals(data.getValue("event_type"))) {
                    String utterance = finished();
                    if (utterance != null) {
                        listener.done(utterance);
                    }
                }
            }
            case "error" -> giveUp("Sarvam: " + (data.getValue("message") instanceof String s && !s.isBlank() ? s
                    : json.encode()) + (data.getValue("code") == null ? "" : " (" + data.getValue("code") + ")"));
            default -> {
                // anything Sarvam adds later
            }
        }
    }

    /** The sentence whose audio this is (noted as heard in part), or null when none is in flight. */
    private synchronized String playing() {
        if (current == null) {
            return null;
        }
        delivered = true;
        return current[0];
    }

    /** The sentence in flight is complete: its characters count and the next one goes. */
    private synchronized String finished() {
        if (current == null) {
            return null;
        }
        String utterance = current[0];
        characters += current[1].length();
        current = null;
        delivered = false;
        next();
        return utterance;
    }

    private synchronized void ping() {
        WebSocket ws = socket();
        if (!closed && ws != null) {
            ws.writeTextMessage(PING);
        }
    }

    @Override
    public synchronized void speak(String utterance, String text) {
        if (closed) {
            return;
        }
        waiting.addLast(new String[] {utterance, text});
        next();
    }

    /**
     * An interrupted sentence: not sent if it waited; the one being spoken is stopped by closing its socket, and
     * another is opened at once for the next. It counts when some of its audio had come.
     */
    @Override
    public synchronized void cancel(String utterance) {
        waiting.removeIf(u -> u[0].equals(utterance));
        if (current == null || !current[0].equals(utterance)) {
            return;
        }
        if (delivered) {
            characters += current[1].length();
        }
        current = null;
        delivered = false;
        discard();
        connect();
    }

    @Override
    public synchronized long characters() {
        return characters;
    }

    @Override
    protected void failed(String message) {
        vertx.cancelTimer(pinger);
        super.failed(message);
    }

    @Override
    public void close() {
        vertx.cancelTimer(pinger);
        shut(null);
    }
}
