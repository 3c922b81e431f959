package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
import io.smallrye.mutiny.subscription.Cancellable;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Text-to-speech by one streamed HTTP request per sentence (Deepgram Aura's {@code POST /v1/speak}, OpenAI's
 * {@code POST /audio/speech}): the audio is handed on as its chunks arrive, converted to the call's format when the
 * provider cannot speak it ({@link Conversion}); a cancelled sentence's request is reset, so the provider stops. At
 * most {@link #IN_FLIGHT} sentences are requested at once (the session plays them in order); the rest wait.
 */
final class SpeechRequests implements TextToSpeech.Stream {

    static final int IN_FLIGHT = 3;

    /** One sentence's request: its URL, headers and JSON body. */
    static final class Request {
        final String url;
        final Map<String, String> headers;
        final String json;

        Request(String url, Map<String, String> headers, String json) {
            this.url = url;
            this.headers = headers;
            this.json = json;
        }
    }

    /** How the provider's audio becomes the call's: as it is, or 16-bit PCM at a rate resampled and encoded. */
    static final class Conversion {
        private final Integer fromRate; // null: the provider already speaks the call's format
        private final AudioFormat to;
        private Resampler resampler;
        private int carry = -1; // a byte of a sample split between chunks

        private Conversion(Integer fromRate, AudioFormat to) {
            this.fromRate = fromRate;
            this.to = to;
        }

        static Conversion none(AudioFormat format) {
            return new Conversion(null, format);
        }

        static Conversion fromPcm(int rate, AudioFormat to) {
            return new Conversion(rate, to);
        }

        byte[] convert(byte[] chunk) {
            if (fromRate == null) {
                return chunk;
            }
            byte[] bytes = chunk;
            if (carry >= 0) {
                bytes = new byte[chunk.length + 1];
                bytes[0] = (byte) carry;
                System.arraycopy(chunk, 0, bytes, 1, chunk.length);
                carry = -1;
            }
            if (bytes.length % 2 == 1) {
                carry = bytes[bytes.length - 1] & 0xFF;
                bytes = Arrays.copyOf(bytes, bytes.length - 1);
            }
            return encode(resampler().process(Pcm16.samples(bytes)));
        }

        byte[] finish() {
            return fromRate == null ? new byte[0] : encode(resampler().flush());
        }

        private Resampler resampler() {
            if (resampler == null) {
                resampler = new Resampler(fromRate, to.sampleRate());
            }
            return resampler;
        }

        private byte[] encode(short[] samples) {
            return to.encoding() == AudioFormat.Encoding.MULAW ? G711.encode(samples) : Pcm16.bytes(samples);
        }
    }

    private final GuardedHttp http;
    private final String provider;
    private final Function<String, Request> requests;
    private final Supplier<Conversion> conversions;
    private final boolean guarded;
    private final Duration timeout;
    private final TextToSpeech.Listener listener;
    private final Deque<String[]> waiting = new ArrayDeque<>();
    private final Map<String, Cancellable> running = new HashMap<>();
    private long characters;
    private boolean closed;
    private boolean failed;

    SpeechRequests(GuardedHttp http, String provider, Function<String, Request> requests,
            Supplier<Conversion> conversions, boolean guarded, Duration timeout, TextToSpeech.Listener listener) {
        this.http = http;
        this.provider = provider;
        this.requests = requests;
        this.conversions = conversions;
        this.guarded = guarded;
        this.timeout = timeout;
        this.listener = listener;
    }

    @Override
    public synchronized void speak(String utterance, String text) {
        if (closed || failed) {
            return;
        }
        characters += text.length();
        waiting.addLast(new String[] {utterance, text});
        next();
    }

    private synchronized void next() {
        while (!closed && !failed && running.size() < IN_FLIGHT && !waiting.isEmpty()) {
            String[] sentence = waiting.pollFirst();
            start(sentence[0], sentence[1]);
        }
    }

    private void start(String utterance, String text) {
        Request request = requests.apply(text);
        Conversion conversion = conversions.get();
        running.put(utterance, null);
        Cancellable cancellable = http.postStream(request.url, request.headers, request.json, timeout, guarded)
                .subscribe().with(
                        chunk -> {
                            byte[] audio = conversion.convert(chunk.getBytes());
                            if (audio.length > 0 && live(utterance)) {
                                listener.audio(utterance, audio);
                            }
                        },
                        failure -> ended(utterance, failure),
                        () -> {
                            byte[] rest = conversion.finish();
                            if (rest.length > 0 && live(utterance)) {
                                listener.audio(utterance, rest);
                            }
                            ended(utterance, null);
                        });
        synchronized (this) {
            if (running.containsKey(utterance)) {
                running.put(utterance, cancellable);
            }
        }
    }

    private synchronized boolean live(String utterance) {
        return !closed && running.containsKey(utterance);
    }

    private void ended(String utterance, Throwable failure) {
        boolean mine;
        synchronized (this) {
            mine = running.containsKey(utterance);
            running.remove(utterance);
            if (failure != null && mine && !closed) {
                failed = true;
            }
        }
        if (!mine || closed) {
            return;
        }
        if (failure == null) {
            listener.done(utterance);
            next();
        } else {
            listener.failed(provider + ": " + describe(failure));
        }
    }

    static String describe(Throwable failure) {
        if (failure instanceof GuardedHttp.StreamRefused refused) {
            String body = refused.body == null ? "" : refused.body.strip();
            return "HTTP " + refused.status + (body.isEmpty() ? "" : ": " + (body.length() > 300
                    ? body.substring(0, 300) : body));
        }
        return failure.getMessage();
    }

    @Override
    public void cancel(String utterance) {
        Cancellable cancellable;
        synchronized (this) {
            waiting.removeIf(s -> s[0].equals(utterance));
            if (!running.containsKey(utterance)) {
                return;
            }
            cancellable = running.remove(utterance);
        }
        if (cancellable != null) {
            cancellable.cancel(); // the request is reset: the provider stops speaking it
        }
        next();
    }

    @Override
    public synchronized long characters() {
        return characters;
    }

    @Override
    public void close() {
        List<Cancellable> open;
        synchronized (this) {
            closed = true;
            waiting.clear();
            open = running.values().stream().filter(Objects::nonNull).toList();
            running.clear();
        }
        open.forEach(Cancellable::cancel);
    }
}
