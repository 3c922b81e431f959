package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.outbound.RetryBudget;
import dev.voiceagent.domain.voice.HeardText;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * One call's LMNT speech session ({@code wss://api.lmnt.com/v1/ai/speech/stream}), API version 1.1 as LMNT's own SDK
 * speaks it (lmnt-python 2.6, {@code resources/sessions.py}, generated from LMNT's AsyncAPI spec; docs.lmnt.com
 * "Speech session (WebSocket)"). There is no header: the first message on every socket carries the key
 * ({@code X-API-Key}), {@code lmnt-version}, the voice, the language, {@code return_timestamps} and the format. The call's
 * rate is asked for as raw {@code pcm_s16le} (8 kHz on the phone, 16 kHz in a browser) and only μ-law-encoded here for
 * the phone: LMNT's {@code ulaw} comes in a WAV container, its header in the stream. The session takes no model (the
 * voice brings its own), so the configuration's model is not sent.
 *
 * <p>Audio comes as binary frames that name no sentence, in the order the text was sent; so one sentence is at LMNT at a
 * time: its text ({@code {"type": "text"}}) then {@code {"type": "flush", "nonce": n}}, and LMNT's
 * {@code flush_complete} with the same nonce ends it, when the next one goes (it is made faster than it plays, so the
 * wait hides behind the playing sentence). Its words come as {@code timestamps} messages before the audio they time,
 * each from the start of that chunk of audio: placed on the sentence's audio received so far. A barge-in on the
 * sentence at LMNT sends {@code {"type": "reset", "nonce": r}} and drops every frame until LMNT's
 * {@code reset_complete} for it (all that came of the reset sentence is before it); the next sentence goes at once, so
 * a cut sentence never holds up the next. An {@code error} message (a refused key says so after the first message)
 * fails the stream with LMNT's words.
 *
 * <p>A socket that drops while a sentence is at LMNT is opened again at once and the sentence sent again, after a
 * {@link TextToSpeech.Listener#restart restart} when some of its audio had come; one idle is opened again on the next
 * sentence ({@link WarmSocket}). The characters of a sentence count when its {@code flush_complete} comes, or when it
 * is cancelled after some of its audio came ({@link TextToSpeech.Stream#characters()}).
 */
final class LmntStream extends SentenceAtATime {

    /** The API version this session speaks (the SDK's {@code LMNT_API_VERSION}). */
    static final String VERSION = "1.1";

    private final AudioFormat format;
    private final JsonObject init;
    /** The flush the sentence at LMNT was sent under. */
    private long flushNonce;
    /** The reset whose {@code reset_complete} ends the frames to drop, or -1. */
    private long resetNonce = -1;
    private long nonces;
    /** The PCM bytes of the sentence at LMNT received so far (where its next chunk's words start). */
    private long received;
    private PcmChunks pcm;

    LmntStream(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            JsonObject init, TextToSpeech.Listener listener) {
        super(connect, vertx, budget, "LMNT", listener);
        this.format = format;
        this.init = init;
        connect();
    }

    /** The first message: key, version, voice, raw PCM at the call's rate, the language, word timestamps. */
    static JsonObject init(String key, String voice, String language, AudioFormat format) {
        JsonObject init = new JsonObject().put("X-API-Key", key).put("lmnt-version", VERSION).put("voice", voice)
                .put("format", "pcm_s16le").put("sample_rate", format.sampleRate()).put("return_timestamps", true);
        if (language != null && !language.isBlank()) {
            init.put("language", language.strip());
        }
        return init;
    }

    /**
     * A {@code timestamps} message's words, {@code offsetMs} after the sentence's start: LMNT's segments
     * ({@code text}, {@code start} and {@code duration} in seconds from its chunk's start), blank ones skipped, a mark
     * that is punctuation alone joined to the word before it.
     */
    static List<HeardText.Word> words(JsonArray timestamps, long offsetMs) {
        List<HeardText.Word> out = new ArrayList<>();
        for (int i = 0; timestamps != null && i < timestamps.size(); i++) {
            if (!(timestamps.getValue(i) instanceof JsonObject segment)
                    || !(segment.getValue("start") instanceof Number start)) {
                continue;
            }
            String text = segment.getString("text", "").strip();
            double duration = segment.getValue("duration") instanceof Number d ? d.doubleValue() : 0;
            long from = offsetMs + Math.round(start.doubleValue() * 1000);
            long to = offsetMs + Math.round((start.doubleValue() + duration) * 1000);
            if (text.isEmpty()) {
                continue;
            }
            if (!out.isEmpty() && text.chars().noneMatch(Character::isLetterOrDigit)) {
                HeardText.Word last = out.removeLast();
                out.add(new HeardText.Word(last.text() + text, last.startMs(), Math.max(last.endMs(), to)));
            } else {
                out.add(new HeardText.Word(text, from, to));
            }
        }
        return out;
    }

    @Override
    protected synchronized void lost() {
        super.lost();
        resetNonce = -1;
    }

    /** A socket opened: the session's first message (the sentence due follows, again from its start). */
    @Override
    protected void begin(WebSocket ws) {
        ws.binaryMessageHandler(frame -> {
            if (socket() == ws) {
                audio(frame.getBytes());
            }
        });
        ws.writeTextMessage(init.encode());
        resetNonce = -1;
    }

    /** A sentence: its text, then a flush under a nonce of its own. */
    @Override
    protected void send(WebSocket ws, String utterance, String text) {
        pcm = PcmChunks.to(format);
        received = 0;
        flushNonce = ++nonces;
        ws.writeTextMessage(new JsonObject().put("type", "text").put("text", text + " ").encode());
        ws.writeTextMessage(new JsonObject().put("type", "flush").put("nonce", flushNonce).encode());
    }

    /** LMNT's {@code reset} under a nonce of its own: the frames until its {@code reset_complete} are dropped. */
    @Override
    protected void stop(WebSocket ws) {
        resetNonce = ++nonces;
        ws.writeTextMessage(new JsonObject().put("type", "reset").put("nonce", resetNonce).encode());
    }

    /** A binary frame: the audio of the sentence at LMNT, unless it is what a reset leaves behind. */
    private void audio(byte[] frame) {
        String utterance;
        byte[] audio;
        synchronized (this) {
            utterance = atProvider();
            if (closed || utterance == null || resetNonce >= 0 || frame.length == 0) {
                return;
            }
            delivered();
            received += frame.length;
            audio = pcm.next(frame);
        }
        if (audio.length > 0) {
            listener.audio(utterance, audio);
        }
    }

    @Override
    protected void message(String text) {
        if (over()) {
            return;
        }
        JsonObject json;
        try {
            json = new JsonObject(text);
        } catch (DecodeException e) {
            return;
        }
        switch (json.getString("type", "")) {
            case "error" -> giveUp("LMNT: " + error(json.getValue("error")));
            case "timestamps" -> timestamps(json.getJsonArray("timestamps"));
            case "flush_complete" -> {
                String done = finished(json.getLong("nonce", -1L));
                if (done != null) {
                    listener.done(done);
                }
                synchronized (this) {
                    next();
                }
            }
            case "reset_complete" -> reset(json.getLong("nonce", -1L));
            default -> {
                // ready, and whatever LMNT adds later
            }
        }
    }

    /** LMNT's words of an error: {@code {"message", "type"}} (a bare string from older servers). */
    private static String error(Object error) {
        if (error instanceof JsonObject body) {
            String type = body.getString("type");
            return body.getString("message", "an error") + (type == null ? "" : " (" + type + ")");
        }
        return error == null ? "an error" : String.valueOf(error);
    }

    private void timestamps(JsonArray timestamps) {
        String utterance;
        List<HeardText.Word> said;
        synchronized (this) {
            utterance = atProvider();
            if (utterance == null || resetNonce >= 0) {
                return;
            }
            said = words(timestamps, received * 1000 / (2L * format.sampleRate()));
        }
        if (!said.isEmpty()) {
            listener.words(utterance, said);
        }
    }

    /** The flush of the sentence at LMNT is complete: it is done and its characters count; null for a stale one. */
    private synchronized String finished(long nonce) {
        return nonce != flushNonce || resetNonce >= 0 ? null : done();
    }

    private synchronized void reset(long nonce) {
        if (nonce == resetNonce) {
            resetNonce = -1;
        }
    }
}
