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
import java.util.Base64;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * One call's Cartesia WebSocket ({@code /tts/websocket}), opened when the call starts and kept warm: each sentence is
 * a context of its own, sent whole ({@code continue: false}) with the voice, the model and the call's format
 * ({@code raw pcm_mulaw} 8 kHz on the phone: no transcoding); its audio comes back as {@code chunk} messages, its
 * words as {@code timestamps} (seconds from the sentence's start: what a barge-in keeps of it), and {@code done} ends
 * it. A barge-in sends {@code cancel} for the context and drops whatever of it still arrives. A socket that drops with
 * sentences in flight is opened again at once and those sentences sent again on it, in order, each after a
 * {@link TextToSpeech.Listener#restart restart} when some of its audio had come; one idle is opened again on the next
 * sentence ({@link WarmSocket}). The characters of a sentence count when its {@code done} comes, or when it is
 * cancelled after some of its audio came ({@link TextToSpeech.Stream#characters()}).
 */
final class CartesiaStream extends WarmSocket implements TextToSpeech.Stream {

    private static final Base64.Decoder DECODE = Base64.getDecoder();

    /** What every sentence's request carries besides its text and context (a class: records here are JSON). */
    static final class Voice {
        private final String model;
        private final String voice;
        private final String language;
        private final Double speed;
        private final Double volume;

        Voice(String model, String voice, String language, Double speed, Double volume) {
            this.model = model;
            this.voice = voice;
            this.language = language;
            this.speed = speed;
            this.volume = volume;
        }

        String model() {
            return model;
        }

        String voice() {
            return voice;
        }

        String language() {
            return language;
        }

        Double speed() {
            return speed;
        }

        Double volume() {
            return volume;
        }
    }

    private final AudioFormat format;
    private final Voice voice;
    /** The sentences sent whose done has not come, in the order they were sent, with their text. */
    private final Map<String, String> open = new LinkedHashMap<>();
    /** Sentences some of whose audio came (since they were last sent). */
    private final Set<String> delivered = new HashSet<>();
    private long characters;

    CartesiaStream(Supplier<Future<WebSocket>> connect, Vertx vertx, RetryBudget budget, AudioFormat format,
            Voice voice, TextToSpeech.Listener listener) {
        super(connect, vertx, budget, "Cartesia", listener);
        this.format = format;
        this.voice = voice;
        connect();
    }

    static String encoding(AudioFormat format) {
        return switch (format.encoding()) {
            case MULAW -> "pcm_mulaw";
            case PCM16LE -> "pcm_s16le";
        };
    }

    /** One sentence's request. */
    JsonObject request(String context, String text) {
        JsonObject request = new JsonObject().put("model_id", voice.model()).put("transcript", text)
                .put("voice", new JsonObject().put("mode", "id").put("id", voice.voice()))
                .put("context_id", context)
                .put("output_format", new JsonObject().put("container", "raw").put("encoding", encoding(format))
                        .put("sample_rate", format.sampleRate()))
                .put("continue", false).put("add_timestamps", true);
        if (voice.language() != null) {
            request.put("language", voice.language());
        }
        JsonObject generation = new JsonObject();
        if (voice.speed() != null && voice.speed() != 1.0) {
            generation.put("speed", voice.speed());
        }
        if (voice.volume() != null && voice.volume() != 1.0) {
            generation.put("volume", voice.volume());
        }
        if (!generation.isEmpty()) {
            request.put("generation_config", generation);
        }
        return request;
    }

    /** A {@code timestamps} message's words, in ms from the sentence's start. */
    static List<HeardText.Word> words(JsonObject timestamps) {
        List<HeardText.Word> out = new ArrayList<>();
        JsonArray words = timestamps == null ? null : timestamps.getJsonArray("words");
        JsonArray starts = timestamps == null ? null : timestamps.getJsonArray("start");
        JsonArray ends = timestamps == null ? null : timestamps.getJsonArray("end");
        int n = words == null || starts == null || ends == null ? 0
                : Math.min(words.size(), Math.min(starts.size(), ends.size()));
        for (int i = 0; i < n; i++) {
            String word = String.valueOf(words.getValue(i)).strip();
            if (!word.isEmpty()) {
                out.add(new HeardText.Word(word, Math.round(((Number) starts.getValue(i)).doubleValue() * 1000),
                        Math.round(((Number) ends.getValue(i)).doubleValue() * 1000)));
            }
        }
        return out;
    }

    @Override
    protected synchronized boolean inFlight() {
        return !open.isEmpty();
    }

    /** A socket opened: every sentence in flight again, in order. */
    @Override
    protected synchronized void opened(WebSocket ws) {
        for (Map.Entry<String, String> sentence : open.entrySet()) {
            if (delivered.remove(sentence.getKey())) {
                listener.restart(sentence.getKey());
            }
            ws.writeTextMessage(request(sentence.getKey(), sentence.getValue() + " ").encode());
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
        String context = json.getString("context_id");
        String type = json.getString("type", "");
        if ("error".equals(type)) {
            if (context == null || isOpen(context)) {
                giveUp("Cartesia: " + json.getValue("error", json.getValue("message", "an error"))
                        + (json.getValue("status_code") == null ? "" : " (" + json.getValue("status_code") + ")"));
            }
            return;
        }
        if (context == null || !isOpen(context)) {
            return; // a cancelled sentence's late audio, or a message about nothing we asked
        }
        switch (type) {
            case "chunk" -> {
                String data = json.getString("data");
                if (data != null && !data.isEmpty()) {
                    delivered(context);
                    listener.audio(context, DECODE.decode(data));
                }
            }
            case "timestamps" -> {
                List<HeardText.Word> said = words(json.getJsonObject("word_timestamps"));
                if (!said.isEmpty()) {
                    listener.words(context, said);
                }
            }
            case "done" -> {
                if (finished(context)) {
                    listener.done(context);
                }
            }
            default -> {
                // flush_done and whatever Cartesia adds later
            }
        }
    }

    private synchronized boolean isOpen(String context) {
        return open.containsKey(context);
    }

    private synchronized void delivered(String context) {
        delivered.add(context);
    }

    /** The sentence's audio is complete: its characters count. */
    private synchronized boolean finished(String context) {
        delivered.remove(context);
        String text = open.remove(context);
        if (text != null) {
            characters += text.length();
        }
        return text != null;
    }

    @Override
    public synchronized void speak(String utterance, String text) {
        if (closed) {
            return;
        }
        open.put(utterance, text);
        write(request(utterance, text + " ").encode());
    }

    /**
     * An interrupted sentence: Cartesia is told to stop it, and what of it still arrives is dropped. It counts when
     * some of its audio had come.
     */
    @Override
    public synchronized void cancel(String utterance) {
        String text = open.remove(utterance);
        if (text != null) {
            if (delivered.remove(utterance)) {
                characters += text.length();
            }
            if (socket() != null) {
                write(new JsonObject().put("context_id", utterance).put("cancel", true).encode());
            }
        }
    }

    @Override
    public synchronized long characters() {
        return characters;
    }

    @Override
    public void close() {
        shut(null);
    }
}
