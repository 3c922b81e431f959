package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.outbound.RetryBudget;
import dev.voiceagent.domain.voice.HeardText;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One call's Rime WebSocket, its JSON protocol at {@code /ws3} (docs.rime.ai "WebSocket API Overview": the flagship
 * endpoint, the only JSON one that speaks Arcana; "Websockets JSON" and "Segmentation" pages; pipecat's
 * services/rime/tts.py): the key as {@code Authorization: Bearer}, the voice, model, language and speed as query
 * parameters, and the call's own format ({@code audioFormat=mulaw} at 8 kHz on the phone, {@code pcm} at 16 kHz in a
 * browser: no transcoding; the PCM only made whole samples, Rime cuts its chunks anywhere).
 *
 * <p>With {@code segment=never} (Rime's recommendation for voice agents) Rime speaks nothing until told: a sentence is
 * its text ({@code {"text", "contextId"}}, the utterance as its context) then {@code {"operation": "flush"}}; its audio
 * comes back as {@code chunk} messages, its words as {@code timestamps} (seconds from the start of that synthesis,
 * i.e. of the sentence), and {@code done} ends it. Rime keeps one context at a time and its {@code clear} drops
 * everything queued, so one sentence is at Rime at a time: the next is sent when the last one's {@code done} comes (it
 * is made faster than it plays, so the wait hides behind the playing sentence). A barge-in on the sentence at Rime
 * sends {@code {"operation": "clear"}} and drops whatever of it still arrives (its chunks carry its context); the next
 * sentence goes at once, so a cut sentence never holds up the next. An {@code error} message (Rime keeps the socket
 * open) means the sentence cannot be spoken: the stream fails with Rime's words.
 *
 * <p>A socket that drops while a sentence is at Rime is opened again at once and the sentence sent again, after a
 * {@link TextToSpeech.Listener#restart restart} when some of its audio had come; one idle is opened again on the next
 * sentence ({@link WarmSocket}). The characters of a sentence count when its {@code done} comes, or when it is
 * cancelled after some of its audio came ({@link TextToSpeech.Stream#characters()}).
 */
final class RimeStream extends SentenceAtATime {

    private static final Base64.Decoder DECODE = Base64.getDecoder();
    private static final String FLUSH = new JsonObject().put("operation", "flush").encode();
    private static final String CLEAR = new JsonObject().put("operation", "clear").encode();
    /** Rime's three-letter codes for the catalog's languages (as pipecat sends them); others go as given. */
    private static final Map<String, String> LANGUAGES = Map.of("en", "eng", "de", "ger", "fr", "fra", "es", "spa",
            "hi", "hin");

    private final AudioFormat format;
    /** The sentence at Rime's PCM made whole samples (a browser's call), or null. */
    private PcmChunks pcm;

    RimeStream(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            TextToSpeech.Listener listener) {
        super(connect, vertx, budget, "Rime", listener);
        this.format = format;
        connect();
    }

    /**
     * The {@code /ws3} query: voice, model, the call's format, no automatic segmentation, the language in Rime's code,
     * and the speed when it is not 1 (as {@code speedAlpha}: faster above 1 on Arcana, Mist v3 and Coda, below 1 on
     * Mist and Mist v2, so the latter get its inverse).
     */
    static String query(String model, String voice, String language, Double speed, AudioFormat format) {
        StringBuilder query = new StringBuilder("?speaker=").append(encode(voice)).append("&modelId=")
                .append(encode(model)).append("&audioFormat=")
                .append(format.encoding() == AudioFormat.Encoding.MULAW ? "mulaw" : "pcm")
                .append("&samplingRate=").append(format.sampleRate()).append("&segment=never");
        if (language != null && !language.isBlank()) {
            String code = language.strip().toLowerCase(Locale.ROOT);
            query.append("&lang=").append(encode(LANGUAGES.getOrDefault(code, code)));
        }
        if (speed != null && speed > 0 && speed != 1.0) {
            boolean mist = model.equals("mist") || model.equals("mistv2");
            query.append("&speedAlpha=").append(mist ? 1 / speed : speed);
        }
        return query.toString();
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /**
     * A {@code timestamps} message's words, in ms from the sentence's start: Rime's arrays as Cartesia's, a mark that
     * is punctuation alone joined to the word before it.
     */
    static List<HeardText.Word> words(JsonObject timestamps) {
        List<HeardText.Word> out = new ArrayList<>();
        for (HeardText.Word word : CartesiaStream.words(timestamps)) {
            if (!out.isEmpty() && word.text().chars().noneMatch(Character::isLetterOrDigit)) {
                HeardText.Word last = out.removeLast();
                out.add(new HeardText.Word(last.text() + word.text(), last.startMs(), Math.max(last.endMs(),
                        word.endMs())));
            } else {
                out.add(word);
            }
        }
        return out;
    }

    /** A sentence: its text under the utterance as its context, then a flush (Rime speaks nothing until told). */
    @Override
    protected void send(WebSocket ws, String utterance, String text) {
        pcm = format.encoding() == AudioFormat.Encoding.PCM16LE ? PcmChunks.to(format) : null;
        ws.writeTextMessage(new JsonObject().put("text", text + " ").put("contextId", utterance).encode());
        ws.writeTextMessage(FLUSH);
    }

    /** Rime's {@code clear}: it drops everything queued. */
    @Override
    protected void stop(WebSocket ws) {
        ws.writeTextMessage(CLEAR);
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
        String type = json.getString("type", "");
        if ("error".equals(type)) {
            giveUp("Rime: " + json.getValue("message", json.getValue("error", "an error")));
            return;
        }
        String context = json.getString("contextId");
        switch (type) {
            case "chunk" -> {
                byte[] audio = audio(context, json.getString("data"));
                if (audio != null && audio.length > 0) {
                    listener.audio(context, audio);
                }
            }
            case "timestamps" -> {
                if (atRime(context)) {
                    List<HeardText.Word> said = words(json.getJsonObject("word_timestamps"));
                    if (!said.isEmpty()) {
                        listener.words(context, said);
                    }
                }
            }
            case "done" -> {
                if (finished(context)) {
                    listener.done(context);
                }
                synchronized (this) {
                    next();
                }
            }
            default -> {
                // whatever Rime adds later
            }
        }
    }

    /** Whether {@code context} is the sentence at Rime now (a cancelled one's late messages are not). */
    private boolean atRime(String context) {
        return context != null && context.equals(atProvider());
    }

    /** A chunk's audio for the sentence at Rime, in the call's format; null for anything else. */
    private synchronized byte[] audio(String context, String data) {
        if (!atRime(context) || data == null || data.isEmpty()) {
            return null;
        }
        delivered();
        byte[] bytes = DECODE.decode(data);
        return pcm == null ? bytes : pcm.next(bytes);
    }

    /** The sentence at Rime is complete: its characters count. */
    private synchronized boolean finished(String context) {
        return atRime(context) && done() != null;
    }
}
