package dev.voiceagent.adapters.outbound.speech;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.audio.Resampler;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.subscription.Cancellable;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * Text-to-speech by one streamed HTTP request per sentence (Deepgram Aura's {@code POST /v1/speak}, OpenAI's
 * {@code POST /audio/speech}, xAI's, Smallest AI's, Camb.ai's, Azure Speech's SSML, Google Cloud's
 * {@code text:synthesize}, MiniMax's server-sent events): the answer is read as its chunks arrive by the provider's
 * {@link Decoder} (raw audio, or the audio its events carry, {@link Conversion#carried}, converted to the call's format
 * when the provider cannot speak it: {@link Conversion}) and its audio handed on; a cancelled sentence's request is
 * reset, so the provider stops. An error the provider says in an answer under way ({@link Said}) is tried again when
 * it is worth it and fails the stream with the provider's words otherwise. At most {@link #IN_FLIGHT} sentences are
 * requested at once (the session plays them in order); the rest wait.
 *
 * <p>A sentence whose request fails (a 5xx, a 408 or a 429 with its Retry-After, a time-out, a connection refused or
 * reset, an error the provider says in its answer that is worth another try ({@link Said}), before or after some of
 * its audio) is requested again after the {@link RetryBudget}'s wait, the listener told to
 * {@link TextToSpeech.Listener#restart restart} it first when some of its audio had come; a refusal not worth
 * another try (a bad key, a bad request) or a spent budget fails the stream, so no sentence is skipped silently. A
 * sentence's characters count when its audio is complete, or when it is cancelled after some of its audio came
 * ({@link TextToSpeech.Stream#characters()}); a sentence requested again counts once. Waits are Vert.x timers.
 */
final class SpeechRequests implements TextToSpeech.Stream {

    private static final System.Logger LOG = System.getLogger(SpeechRequests.class.getName());
    static final int IN_FLIGHT = 3;

    /** One sentence's request: its URL, headers and body (JSON unless the headers give another Content-Type). */
    static final class Request {
        final String url;
        final Map<String, String> headers;
        final String body;

        Request(String url, Map<String, String> headers, String body) {
            this.url = url;
            this.headers = headers;
            this.body = body;
        }
    }

    /**
     * How one try's answer becomes the call's audio: each chunk of its body as it comes, then what is left at its end
     * (never null: empty when there is no audio). Either may throw {@link Said} when the provider says the sentence
     * failed. One per try, used on one thread at a time.
     */
    interface Decoder {

        byte[] chunk(byte[] bytes);

        byte[] end();
    }

    /**
     * The provider said, in an answer already under way, that the sentence failed (an error event in its body, an
     * answer without its audio), or would not sign in ({@link GoogleTokens}: Google's token service refused the
     * credentials): its words. Asked again when {@code again} (a rate limit, the provider's own hiccup); otherwise the
     * stream fails with them (here, and in the streams that sign in the same way).
     */
    static final class Said extends RuntimeException {
        final boolean again;

        Said(String words) {
            this(words, false);
        }

        Said(String words, boolean again) {
            super(words, null, false, false);
            this.again = again;
        }
    }

    /**
     * How the provider's audio becomes the call's: as it is, or 16-bit PCM at a rate resampled (when it is not the
     * call's) and encoded; the audio is the body itself, or what its events carry ({@link #carried}).
     */
    static final class Conversion implements Decoder {
        private final Integer fromRate; // null: the provider already speaks the call's format
        private final AudioFormat to;
        private UnaryOperator<byte[]> events; // null: the body is the audio
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

        /**
         * This conversion of the audio the body's events carry: {@code events} takes each piece of the body to the
         * audio it completes, or throws {@link Said} for an event that says the sentence failed. One per request.
         */
        Conversion carried(UnaryOperator<byte[]> events) {
            this.events = events;
            return this;
        }

        @Override
        public byte[] chunk(byte[] piece) {
            byte[] chunk = events == null ? piece : events.apply(piece);
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
            short[] samples = Pcm16.samples(bytes);
            return encode(fromRate == to.sampleRate() ? samples : resampler().process(samples));
        }

        @Override
        public byte[] end() {
            return fromRate == null || fromRate == to.sampleRate() ? new byte[0] : encode(resampler().flush());
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

    /** A sentence being spoken: its tries, whether some of its audio came, its request or its wait. */
    private static final class Sentence {
        final String utterance;
        final String text;
        int attempt;
        long firstFailure = -1;
        boolean delivered;
        Cancellable request;
        long timer = -1;

        Sentence(String utterance, String text) {
            this.utterance = utterance;
            this.text = text;
        }
    }

    private final GuardedHttp http;
    private final Vertx vertx;
    private final RetryBudget budget;
    private final String provider;
    private final Function<String, Uni<Request>> requests;
    private final Supplier<? extends Decoder> decoders;
    private final boolean guarded;
    private final Duration timeout;
    private final TextToSpeech.Listener listener;
    private final Deque<Sentence> waiting = new ArrayDeque<>();
    private final Map<String, Sentence> running = new HashMap<>();
    private long characters;
    private boolean closed;
    private boolean failed;

    /** Each sentence's request made from its text; each try's answer read by a fresh decoder. */
    SpeechRequests(GuardedHttp http, Vertx vertx, RetryBudget budget, String provider,
            Function<String, Request> requests, Supplier<? extends Decoder> decoders, boolean guarded, Duration timeout,
            TextToSpeech.Listener listener) {
        this(http, vertx, budget, provider, decoders, guarded, timeout, listener,
                text -> Uni.createFrom().item(requests.apply(text)));
    }

    private SpeechRequests(GuardedHttp http, Vertx vertx, RetryBudget budget, String provider,
            Supplier<? extends Decoder> decoders, boolean guarded, Duration timeout, TextToSpeech.Listener listener,
            Function<String, Uni<Request>> requests) {
        this.http = http;
        this.vertx = vertx;
        this.budget = budget;
        this.provider = provider;
        this.requests = requests;
        this.decoders = decoders;
        this.guarded = guarded;
        this.timeout = timeout;
        this.listener = listener;
    }

    /**
     * As the constructor, each try's request made when the try starts and only when it can be (after an access token
     * is had, say); its failure fails the try as a request's would.
     */
    static SpeechRequests deferred(GuardedHttp http, Vertx vertx, RetryBudget budget, String provider,
            Function<String, Uni<Request>> requests, Supplier<? extends Decoder> decoders, boolean guarded,
            Duration timeout, TextToSpeech.Listener listener) {
        return new SpeechRequests(http, vertx, budget, provider, decoders, guarded, timeout, listener, requests);
    }

    @Override
    public synchronized void speak(String utterance, String text) {
        if (closed || failed) {
            return;
        }
        waiting.addLast(new Sentence(utterance, text));
        next();
    }

    private synchronized void next() {
        while (!closed && !failed && running.size() < IN_FLIGHT && !waiting.isEmpty()) {
            Sentence sentence = waiting.pollFirst();
            running.put(sentence.utterance, sentence);
            start(sentence);
        }
    }

    /** Requests the sentence (again: after a restart when some of its audio had come). */
    private synchronized void start(Sentence sentence) {
        sentence.timer = -1;
        if (closed || failed || running.get(sentence.utterance) != sentence) {
            return;
        }
        if (sentence.delivered) {
            sentence.delivered = false;
            listener.restart(sentence.utterance);
        }
        int mine = ++sentence.attempt;
        Decoder decoder = decoders.get();
        // what a decoder's Said throws fails this try and resets its request (Mutiny cancels upstream of a failed map)
        sentence.request = Uni.createFrom().deferred(() -> requests.apply(sentence.text))
                .onItem().transformToMulti(request -> http.postStream(request.url, request.headers, request.body,
                        timeout, guarded))
                .onItem().transform(chunk -> decoder.chunk(chunk.getBytes()))
                .subscribe().with(
                        audio -> audio(sentence, mine, audio),
                        failure -> ended(sentence, mine, failure),
                        () -> {
                            byte[] rest;
                            try {
                                rest = decoder.end();
                            } catch (Said failure) {
                                ended(sentence, mine, failure);
                                return;
                            }
                            audio(sentence, mine, rest);
                            ended(sentence, mine, null);
                        });
    }

    private void audio(Sentence sentence, int attempt, byte[] audio) {
        if (audio.length == 0 || !live(sentence, attempt)) {
            return;
        }
        listener.audio(sentence.utterance, audio);
    }

    /** Whether this try is the sentence's current one (and notes that its audio came). */
    private synchronized boolean live(Sentence sentence, int attempt) {
        if (closed || running.get(sentence.utterance) != sentence || sentence.attempt != attempt) {
            return false;
        }
        sentence.delivered = true;
        return true;
    }

    private void ended(Sentence sentence, int attempt, Throwable failure) {
        String message;
        synchronized (this) {
            if (closed || failed || running.get(sentence.utterance) != sentence || sentence.attempt != attempt) {
                return;
            }
            sentence.request = null;
            if (failure == null) {
                running.remove(sentence.utterance);
                characters += sentence.text.length();
                message = null;
            } else if (retry(sentence, failure)) {
                return;
            } else {
                failed = true;
                message = provider + ": " + describe(failure);
            }
        }
        if (message == null) {
            listener.done(sentence.utterance);
            next();
        } else {
            listener.failed(message);
        }
    }

    /** Schedules the sentence's next try when the failure is worth one and the budget allows it. */
    private boolean retry(Sentence sentence, Throwable failure) {
        Duration retryAfter = null;
        boolean again;
        if (failure instanceof GuardedHttp.StreamRefused refused) {
            again = RetryBudget.transientStatus(refused.status);
            retryAfter = RetryBudget.retryAfter(refused.retryAfter, Instant.now());
        } else if (failure instanceof Said said) {
            again = said.again;
        } else {
            again = failure instanceof GuardedHttp.Unreachable && !(failure instanceof GuardedHttp.Refused);
        }
        if (!again) {
            return false;
        }
        long now = System.nanoTime();
        if (sentence.firstFailure < 0) {
            sentence.firstFailure = now;
        }
        Optional<Duration> wait = budget.next(sentence.attempt, Duration.ofNanos(now - sentence.firstFailure),
                retryAfter, ThreadLocalRandom.current().nextDouble());
        if (wait.isEmpty()) {
            return false;
        }
        LOG.log(System.Logger.Level.INFO, "{0} failed a sentence ({1}); trying again in {2} ms", provider,
                describe(failure), wait.get().toMillis());
        sentence.timer = vertx.setTimer(Math.max(1, wait.get().toMillis()), t -> start(sentence));
        return true;
    }

    static String describe(Throwable failure) {
        if (failure instanceof GuardedHttp.StreamRefused refused) {
            String body = refused.body == null ? "" : refused.body.strip();
            return "HTTP " + refused.status + (body.isEmpty() ? "" : ": " + (body.length() > 300
                    ? body.substring(0, 300) : body));
        }
        return failure.getMessage();
    }

    /** A sentence cut by a barge-in: its request reset; it counts when some of its audio had come. */
    @Override
    public void cancel(String utterance) {
        Sentence sentence;
        synchronized (this) {
            waiting.removeIf(s -> s.utterance.equals(utterance));
            sentence = running.remove(utterance);
            if (sentence == null) {
                return;
            }
            if (sentence.delivered) {
                characters += sentence.text.length();
            }
            if (sentence.timer >= 0) {
                vertx.cancelTimer(sentence.timer);
            }
        }
        if (sentence.request != null) {
            sentence.request.cancel(); // the request is reset: the provider stops speaking it
        }
        next();
    }

    @Override
    public synchronized long characters() {
        return characters;
    }

    @Override
    public void close() {
        List<Sentence> open;
        synchronized (this) {
            closed = true;
            waiting.clear();
            open = List.copyOf(running.values());
            running.clear();
        }
        for (Sentence sentence : open) {
            if (sentence.timer >= 0) {
                vertx.cancelTimer(sentence.timer);
            }
            if (sentence.request != null) {
                sentence.request.cancel();
            }
        }
    }
}
