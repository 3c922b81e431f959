package dev.voiceagent.adapters.outbound.speech;

import com.google.cloud.texttospeech.v1.AudioEncoding;
import com.google.cloud.texttospeech.v1.StreamingAudioConfig;
import com.google.cloud.texttospeech.v1.StreamingSynthesisInput;
import com.google.cloud.texttospeech.v1.StreamingSynthesizeConfig;
import com.google.cloud.texttospeech.v1.StreamingSynthesizeRequest;
import com.google.cloud.texttospeech.v1.StreamingSynthesizeResponse;
import com.google.cloud.texttospeech.v1.VoiceSelectionParams;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.AsyncResult;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.grpc.client.GrpcClientRequest;
import io.vertx.grpc.client.GrpcClientResponse;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Google Cloud Text-to-Speech's streaming synthesis, v1 {@code TextToSpeech/StreamingSynthesize} over gRPC (Google
 * streams synthesis over gRPC only) on Vert.x's gRPC client, signed in as {@link GoogleListen} is (the key as the
 * {@code x-goog-api-key} metadata, or a service account's access token as {@code authorization: Bearer}, asked for
 * before each call). One call per sentence: a first request with the {@code streaming_config} (the voice by name and
 * language; the call's own audio, {@code MULAW} at 8 kHz on the phone, {@code PCM} (16-bit little-endian) at 16 kHz
 * in a browser; the speaking rate), then one with the sentence's {@code input.text}, then the half-close; Google
 * answers the sentence's audio in {@code audio_content} responses as it makes it (a WAV header, should one come, is
 * taken off) and ends the call with OK when the sentence is spoken. Streaming synthesis serves the Chirp 3 HD voices
 * only ({@link #streams(String)}); the factory speaks any other voice by REST ({@link GoogleSpeech}). Relied on: the
 * v1 RPC reference (cloud.google.com/text-to-speech/docs/reference/rpc/google.cloud.texttospeech.v1: the
 * {@code StreamingSynthesizeRequest} that carries the {@code streaming_config} first, the {@code input} after it;
 * {@code StreamingAudioConfig}'s encoding, rate and speaking rate) and the generated v1 messages themselves
 * ({@code proto-google-cloud-texttospeech-v1}).
 *
 * <p>A cancelled sentence's call is cancelled (an HTTP/2 reset: Google stops making it); the others go on. At most
 * {@link SpeechRequests#IN_FLIGHT} sentences are spoken at once, the rest wait, as with {@link SpeechRequests}. A call
 * that fails (no connection, {@code UNAVAILABLE}, {@code DEADLINE_EXCEEDED} or another passing status, a reset, no
 * answer within the time limit: before or after some of its audio) is made again after the {@link RetryBudget}'s
 * wait, the listener told to {@link TextToSpeech.Listener#restart restart} the sentence first when some of its audio
 * had come; a refusal ({@link #REFUSALS}: a bad key or token, a project without the API, an unknown voice, a bad
 * request), a token refused ({@link GoogleTokens}) or a spent budget fails the stream with Google's words. A sentence's
 * characters count when its audio is complete, or when it is cancelled after some of its audio came; a sentence
 * spoken again counts once. Waits are Vert.x timers.
 */
final class GoogleStreamingSpeech implements TextToSpeech.Stream {

    private static final System.Logger LOG = System.getLogger(GoogleStreamingSpeech.class.getName());

    /** The RPC, as generated classes of Google's v1 messages (no stubs, no reflection). */
    static final ServiceMethod<StreamingSynthesizeResponse, StreamingSynthesizeRequest> STREAMING_SYNTHESIZE =
            ServiceMethod.client(ServiceName.create("google.cloud.texttospeech.v1.TextToSpeech"),
                    "StreamingSynthesize", GrpcMessageEncoder.encoder(),
                    GrpcMessageDecoder.decoder(StreamingSynthesizeResponse.parser()));
    static final String PROVIDER = "Google Cloud";
    /** Statuses Google refuses a call with for good: the key, the project, the voice, the request. */
    static final Set<GrpcStatus> REFUSALS = Set.of(GrpcStatus.UNAUTHENTICATED, GrpcStatus.PERMISSION_DENIED,
            GrpcStatus.INVALID_ARGUMENT, GrpcStatus.NOT_FOUND, GrpcStatus.FAILED_PRECONDITION,
            GrpcStatus.UNIMPLEMENTED);

    /** A sentence being spoken: its tries, whether some of its audio came, its call or its wait. */
    private static final class Sentence {
        final String utterance;
        final String text;
        /** The current try (a try that ended is no longer current), and the tries made. */
        int attempt;
        int tries;
        long firstFailure = -1;
        boolean delivered;
        /** The first bytes of the current try's audio, kept until a WAV header can be told from audio. */
        byte[] head;
        boolean headless;
        GrpcClientRequest<StreamingSynthesizeRequest, StreamingSynthesizeResponse> call;
        long timer = -1;
        long silence = -1;

        Sentence(String utterance, String text) {
            this.utterance = utterance;
            this.text = text;
        }
    }

    private final Supplier<Future<GrpcClientRequest<StreamingSynthesizeRequest, StreamingSynthesizeResponse>>> connect;
    private final Vertx vertx;
    private final RetryBudget budget;
    private final StreamingSynthesizeRequest config;
    private final long timeoutMs;
    private final TextToSpeech.Listener listener;
    private final Deque<Sentence> waiting = new ArrayDeque<>();
    private final Map<String, Sentence> running = new HashMap<>();
    private long characters;
    private boolean closed;
    private boolean failed;

    GoogleStreamingSpeech(
            Supplier<Future<GrpcClientRequest<StreamingSynthesizeRequest, StreamingSynthesizeResponse>>> connect,
            Vertx vertx, RetryBudget budget, StreamingSynthesizeConfig config, long timeoutMs,
            TextToSpeech.Listener listener) {
        this.connect = connect;
        this.vertx = vertx;
        this.budget = budget;
        this.config = StreamingSynthesizeRequest.newBuilder().setStreamingConfig(config).build();
        this.timeoutMs = timeoutMs;
        this.listener = listener;
    }

    /** Whether Google streams the voice: its Chirp 3 HD voices (and the Chirp HD ones) only. */
    static boolean streams(String voice) {
        return voice.contains("Chirp3-HD") || voice.contains("Chirp-HD");
    }

    /** A call's configuration: the voice, the call's own encoding and rate, the speaking rate when one is set. */
    static StreamingSynthesizeConfig config(String voice, String language, Double speed, AudioFormat format) {
        StreamingAudioConfig.Builder audio = StreamingAudioConfig.newBuilder()
                .setAudioEncoding(format.encoding() == AudioFormat.Encoding.MULAW ? AudioEncoding.MULAW
                        : AudioEncoding.PCM)
                .setSampleRateHertz(format.sampleRate());
        if (speed != null) {
            audio.setSpeakingRate(speed);
        }
        return StreamingSynthesizeConfig.newBuilder()
                .setVoice(VoiceSelectionParams.newBuilder().setName(voice).setLanguageCode(language))
                .setStreamingAudioConfig(audio).build();
    }

    @Override
    public synchronized void speak(String utterance, String text) {
        if (closed || failed) {
            return;
        }
        waiting.addLast(new Sentence(utterance, text));
        next();
    }

    private void next() {
        while (!closed && !failed && running.size() < SpeechRequests.IN_FLIGHT && !waiting.isEmpty()) {
            Sentence sentence = waiting.pollFirst();
            running.put(sentence.utterance, sentence);
            start(sentence);
        }
    }

    private boolean current(Sentence sentence, int attempt) {
        return !closed && !failed && running.get(sentence.utterance) == sentence && sentence.attempt == attempt;
    }

    /** Opens the sentence's call (again: after a restart when some of its audio had come). */
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
        sentence.tries++;
        sentence.head = null;
        sentence.headless = false;
        sentence.silence = vertx.setTimer(Math.max(1, timeoutMs), t -> silent(sentence, mine));
        Future<GrpcClientRequest<StreamingSynthesizeRequest, StreamingSynthesizeResponse>> opening;
        try {
            opening = connect.get();
        } catch (RuntimeException refused) {
            opening = Future.failedFuture(refused);
        }
        opening.onComplete(result -> opened(sentence, mine, result));
    }

    private synchronized void opened(Sentence sentence, int attempt,
            AsyncResult<GrpcClientRequest<StreamingSynthesizeRequest, StreamingSynthesizeResponse>> result) {
        if (!current(sentence, attempt)) {
            if (result.succeeded()) {
                result.result().cancel();
            }
            return;
        }
        if (result.failed()) {
            boolean again = !(result.cause() instanceof SpeechRequests.Said said) || said.again;
            ended(sentence, attempt, result.cause().getMessage(), again);
            return;
        }
        GrpcClientRequest<StreamingSynthesizeRequest, StreamingSynthesizeResponse> call = result.result();
        sentence.call = call;
        call.exceptionHandler(e -> ended(sentence, attempt, e.toString(), true));
        call.response().onComplete(response -> responded(sentence, attempt, response));
        try {
            call.write(config);
            call.write(StreamingSynthesizeRequest.newBuilder()
                    .setInput(StreamingSynthesisInput.newBuilder().setText(sentence.text)).build());
            call.end();
        } catch (IllegalStateException cancelled) {
            ended(sentence, attempt, cancelled.getMessage(), true);
        }
    }

    private synchronized void responded(Sentence sentence, int attempt,
            AsyncResult<GrpcClientResponse<StreamingSynthesizeRequest, StreamingSynthesizeResponse>> result) {
        if (!current(sentence, attempt)) {
            return;
        }
        if (result.failed()) {
            ended(sentence, attempt, result.cause().toString(), true);
            return;
        }
        GrpcClientResponse<StreamingSynthesizeRequest, StreamingSynthesizeResponse> response = result.result();
        response.handler(message -> audio(sentence, attempt, message.getAudioContent().toByteArray()));
        response.errorHandler(error -> ended(sentence, attempt, "reset (" + error + ")", true));
        response.exceptionHandler(e -> ended(sentence, attempt, e.toString(), true));
        // a status in the headers (a trailers-only answer) was decoded by Vert.x; one in the trailers was not
        boolean decoded = response.headers().get("grpc-status") != null;
        response.endHandler(v -> status(sentence, attempt, response.status(), decoded ? response.statusMessage()
                : GoogleListen.percentDecoded(response.statusMessage())));
    }

    private synchronized void audio(Sentence sentence, int attempt, byte[] audio) {
        if (!current(sentence, attempt)) {
            return;
        }
        vertx.cancelTimer(sentence.silence);
        sentence.silence = vertx.setTimer(Math.max(1, timeoutMs), t -> silent(sentence, attempt));
        byte[] bytes = headless(sentence, audio);
        if (bytes.length > 0) {
            sentence.delivered = true;
            listener.audio(sentence.utterance, bytes);
        }
    }

    /** The audio without a WAV header at its start (kept until 44 bytes tell whether there is one). */
    private static byte[] headless(Sentence sentence, byte[] audio) {
        if (sentence.headless) {
            return audio;
        }
        byte[] head = sentence.head == null ? audio : concat(sentence.head, audio);
        if (head.length < 4 || head.length < 44 && startsRiff(head)) {
            sentence.head = head;
            return new byte[0];
        }
        sentence.head = null;
        sentence.headless = true;
        if (!startsRiff(head)) {
            return head;
        }
        ByteBuffer wav = ByteBuffer.wrap(head).order(ByteOrder.LITTLE_ENDIAN);
        int at = 12;
        while (at + 8 <= head.length) {
            String id = new String(head, at, 4, StandardCharsets.US_ASCII);
            int size = wav.getInt(at + 4);
            if (size < 0) {
                break; // a streamed header's unknown size
            }
            if ("data".equals(id)) {
                return Arrays.copyOfRange(head, at + 8, head.length);
            }
            at += 8 + size + (size & 1);
        }
        return Arrays.copyOfRange(head, Math.min(44, head.length), head.length);
    }

    private static boolean startsRiff(byte[] bytes) {
        return bytes.length >= 4 && bytes[0] == 'R' && bytes[1] == 'I' && bytes[2] == 'F' && bytes[3] == 'F';
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    /** No answer, or no more audio, within the time limit: the call is cancelled and made again. */
    private synchronized void silent(Sentence sentence, int attempt) {
        if (current(sentence, attempt)) {
            ended(sentence, attempt, "no answer within " + timeoutMs + " ms", true);
        }
    }

    /** The call ended with a status: OK is the sentence spoken, a refusal fails the stream, the rest is tried again. */
    private synchronized void status(Sentence sentence, int attempt, GrpcStatus given, String message) {
        if (!current(sentence, attempt)) {
            return;
        }
        GrpcStatus status = given == null ? GrpcStatus.UNKNOWN : given;
        if (status == GrpcStatus.OK) {
            if (sentence.head != null) {
                byte[] rest = sentence.head;
                sentence.head = null;
                sentence.delivered = true;
                listener.audio(sentence.utterance, rest);
            }
            vertx.cancelTimer(sentence.silence);
            running.remove(sentence.utterance);
            characters += sentence.text.length();
            listener.done(sentence.utterance);
            next();
            return;
        }
        ended(sentence, attempt, (message == null || message.isBlank() ? "an error" : message) + " ("
                + status.name() + ")", !REFUSALS.contains(status));
    }

    /** The try failed: made again within the budget when it is worth it, else the stream fails with the words. */
    private void ended(Sentence sentence, int attempt, String why, boolean again) {
        if (!current(sentence, attempt)) {
            return;
        }
        sentence.attempt++; // the late answers of this try are not the sentence's any more
        vertx.cancelTimer(sentence.silence);
        if (sentence.call != null) {
            sentence.call.cancel();
            sentence.call = null;
        }
        if (again) {
            long now = System.nanoTime();
            if (sentence.firstFailure < 0) {
                sentence.firstFailure = now;
            }
            Optional<Duration> wait = budget.next(sentence.tries, Duration.ofNanos(now - sentence.firstFailure),
                    null, ThreadLocalRandom.current().nextDouble());
            if (wait.isPresent()) {
                LOG.log(System.Logger.Level.INFO, "{0} failed a sentence ({1}); trying again in {2} ms", PROVIDER,
                        why, wait.get().toMillis());
                sentence.timer = vertx.setTimer(Math.max(1, wait.get().toMillis()), t -> start(sentence));
                return;
            }
        }
        failed = true;
        List<Sentence> open = List.copyOf(running.values());
        running.clear();
        waiting.clear();
        for (Sentence other : open) {
            stop(other);
        }
        listener.failed(PROVIDER + ": " + why);
    }

    private void stop(Sentence sentence) {
        if (sentence.timer >= 0) {
            vertx.cancelTimer(sentence.timer);
        }
        vertx.cancelTimer(sentence.silence);
        if (sentence.call != null) {
            sentence.call.cancel();
            sentence.call = null;
        }
    }

    /** A sentence cut by a barge-in: its call cancelled; it counts when some of its audio had come. */
    @Override
    public synchronized void cancel(String utterance) {
        waiting.removeIf(s -> s.utterance.equals(utterance));
        Sentence sentence = running.remove(utterance);
        if (sentence == null) {
            return;
        }
        if (sentence.delivered) {
            characters += sentence.text.length();
        }
        stop(sentence);
        next();
    }

    @Override
    public synchronized long characters() {
        return characters;
    }

    @Override
    public synchronized void close() {
        closed = true;
        waiting.clear();
        List<Sentence> open = List.copyOf(running.values());
        running.clear();
        for (Sentence sentence : open) {
            stop(sentence);
        }
    }
}
