package dev.voiceagent.adapters.outbound.speech;

import com.google.cloud.speech.v1.RecognitionConfig;
import com.google.cloud.speech.v1.SpeechContext;
import com.google.cloud.speech.v1.StreamingRecognitionConfig;
import com.google.cloud.speech.v1.StreamingRecognitionResult;
import com.google.cloud.speech.v1.StreamingRecognizeRequest;
import com.google.cloud.speech.v1.StreamingRecognizeResponse;
import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
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
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * One call's Google Cloud Speech-to-Text streaming recognition, v1 {@code Speech/StreamingRecognize} over gRPC (Google
 * streams recognition over gRPC only) on Vert.x's gRPC client: the key as the {@code x-goog-api-key} metadata (or a
 * service account's access token as {@code authorization: Bearer}, asked for before each call), a first
 * request with the {@code streaming_config} (the call's own audio: {@code MULAW} at 8 kHz from a phone,
 * {@code LINEAR16} at 16 kHz from a browser; the language; the model, {@code use_enhanced} for the two that have an
 * enhanced variant, {@code phone_call} and {@code video}; automatic punctuation; the workflow's dictionary as a
 * speech context's phrases; interim results; {@code single_utterance} off; voice activity events), then the audio in
 * {@code audio_content} requests of {@link #CHUNK_MS} ms (Google takes at most 25 KB a request, at about real time).
 * Relied on: the v1 RPC reference (cloud.google.com/speech-to-text/docs/reference/rpc/google.cloud.speech.v1), the
 * quotas page (25 KB a request, a stream lives at most 5 minutes), Google's endless-streaming sample (a new stream
 * before the limit, the unfinished audio sent again), and pipecat's {@code services/google/stt.py} (v2, a new stream
 * every 4 minutes; it asks for no final when the caller stops).
 *
 * <p>A response's results that are not final make one interim transcript (Google splits the words heard so far into a
 * stable part and an unstable one: they are joined); a final result is passed on as it comes. v1 has no message that
 * asks for a final now ({@link #finalizeNow()}): the request stream is half-closed instead, which makes Google settle
 * everything it heard, send the finals and end the call with OK; an end that answers a finalize with no final since
 * is passed on as an empty final (the recognizer has nothing more: the turn can be answered now), as Deepgram's
 * answered Finalize is. Meanwhile the caller's audio is kept, and the next stream, opened when the drained one has
 * ended, is sent it first. {@code END_OF_SINGLE_UTTERANCE} (Google will hear no more on that stream) is handled the
 * same way, except that the audio sent after that utterance's final (which Google no longer heard) goes to the next
 * stream as well. The voice activity events say when the caller is mid-utterance ({@code SPEECH_ACTIVITY_BEGIN}
 * until the utterance's final): the port has no utterance-end callback, so turn-taking stays with our own voice
 * activity, as with Deepgram; the events decide when a stream may be replaced (between utterances, or at a
 * {@code SPEECH_ACTIVITY_END}) and how much audio is kept for a new one.
 *
 * <p>A stream is replaced before Google's 5-minute limit: after {@code rotateMs} (4 minutes) it is half-closed at the
 * first moment the caller is not mid-utterance, and at the latest an eighth later. The caller's audio no final has
 * settled is kept ({@link #UNSETTLED_MS} at most; only {@link #IDLE_MS} while a live stream hears no utterance, as
 * older audio is silence it passed over and sending it again would be a burst faster than real time), and every new
 * stream is sent it first, then the half-close a finalize still waits for: a final settles the audio up to its
 * {@code result_end_time}, a drained stream all it was sent, so nothing is transcribed twice. A stream that fails (a
 * dropped connection, a reset, an error status but a refusal, Google's 5-minute {@code OUT_OF_RANGE}) is opened again
 * at once, and again within the {@link RetryBudget} if the new one fails too; one whose half-close is not answered
 * within the time limit is cancelled and tried again the same way. A refusal ({@code UNAUTHENTICATED},
 * {@code PERMISSION_DENIED}, {@code INVALID_ARGUMENT}: Google's answer to a bad key or configuration,
 * {@code FAILED_PRECONDITION}, {@code NOT_FOUND}, {@code UNIMPLEMENTED}), like a service account's token refused
 * ({@link GoogleTokens}), fails the stream at once with Google's words. Each stream is billed on its own; usage
 * counts the caller's audio once.
 */
final class GoogleListen implements SpeechToText.Stream {

    private static final System.Logger LOG = System.getLogger(GoogleListen.class.getName());

    /** The RPC, as generated classes of Google's v1 messages (no stubs, no reflection). */
    static final ServiceMethod<StreamingRecognizeResponse, StreamingRecognizeRequest> STREAMING_RECOGNIZE =
            ServiceMethod.client(ServiceName.create("google.cloud.speech.v1.Speech"), "StreamingRecognize",
                    GrpcMessageEncoder.encoder(), GrpcMessageDecoder.decoder(StreamingRecognizeResponse.parser()));
    static final String PROVIDER = "Google Speech-to-Text";
    /** The audio of one request: five of the call's 20 ms frames. */
    static final int CHUNK_MS = 100;
    /** The most caller audio kept for a new stream (the audio no final settled). */
    static final int UNSETTLED_MS = 15_000;
    /** The caller audio kept while a live stream hears no utterance. */
    static final int IDLE_MS = 3_000;
    /** A stream is replaced after this long, before Google's 5-minute limit. */
    static final long ROTATE_MS = 240_000;
    /** Google's limits on phrases: their number and length (v1 quotas). */
    static final int MAX_PHRASES = 5_000;
    static final int MAX_PHRASE_CHARS = 100;
    /** Statuses Google refuses a stream with for good: the key, the project, the configuration. */
    static final Set<GrpcStatus> REFUSALS = Set.of(GrpcStatus.UNAUTHENTICATED, GrpcStatus.PERMISSION_DENIED,
            GrpcStatus.INVALID_ARGUMENT, GrpcStatus.FAILED_PRECONDITION, GrpcStatus.NOT_FOUND,
            GrpcStatus.UNIMPLEMENTED);

    private final Supplier<Future<GrpcClientRequest<StreamingRecognizeRequest, StreamingRecognizeResponse>>> connect;
    private final Vertx vertx;
    private final RetryBudget budget;
    private final AudioFormat format;
    private final SpeechToText.Listener listener;
    private final StreamingRecognizeRequest config;
    private final long timeoutMs;
    private final long rotateMs;
    /** The call's frames not yet a whole request. */
    private final ByteArrayOutputStream pending = new ByteArrayOutputStream();
    /** The caller's audio not settled yet, oldest first, from {@link #unsettledFrom} (bytes since the call began). */
    private final Deque<byte[]> unsettled = new ArrayDeque<>();
    private long unsettledFrom;
    private long unsettledBytes;
    /** Where the caller stopped when a finalize was asked for that no drained stream answered yet; -1: none. */
    private long finalizeAt = -1;
    /** A final came since the last finalize was asked for. */
    private boolean finalSinceFinalize;
    /** The caller is mid-utterance: speech began, or words were heard, and no final settled them yet. */
    private boolean utterance;
    private long bytes;
    /** The open stream (live, or draining after its half-close), or null. */
    private Leg leg;
    private boolean connecting;
    private int attempt;
    private long connectTimer = -1;
    private long retryTimer = -1;
    private int failures;
    private long firstFailure = -1;
    private boolean closed;

    /** One StreamingRecognize call: the audio it was sent is the call's from {@code from} to {@code sent}. */
    private final class Leg {
        final GrpcClientRequest<StreamingRecognizeRequest, StreamingRecognizeResponse> call;
        final long from;
        long sent;
        boolean halfClosed;
        /** Google said END_OF_SINGLE_UTTERANCE: what it was sent after that utterance's final it did not hear. */
        boolean deaf;
        boolean rotateDue;
        long drainTimer = -1;
        long rotateTimer = -1;
        long limitTimer = -1;

        Leg(GrpcClientRequest<StreamingRecognizeRequest, StreamingRecognizeResponse> call, long from) {
            this.call = call;
            this.from = from;
            this.sent = from;
        }
    }

    GoogleListen(Supplier<Future<GrpcClientRequest<StreamingRecognizeRequest, StreamingRecognizeResponse>>> connect,
            Vertx vertx, RetryBudget budget, AudioFormat format, SpeechToText.Listener listener,
            StreamingRecognitionConfig config, long timeoutMs, long rotateMs) {
        this.connect = connect;
        this.vertx = vertx;
        this.budget = budget;
        this.format = format;
        this.listener = listener;
        this.config = StreamingRecognizeRequest.newBuilder().setStreamingConfig(config).build();
        this.timeoutMs = timeoutMs;
        this.rotateMs = rotateMs;
        connect();
    }

    /**
     * The stream's configuration: the call's encoding and rate as they are, the language and model, the enhanced
     * variant where the model has one, punctuation, the dictionary as phrases (within Google's limits), interim results
     * and voice activity events, several utterances a stream.
     */
    static StreamingRecognitionConfig config(String model, String language, AudioFormat format,
            List<String> keyterms) {
        RecognitionConfig.Builder recognition = RecognitionConfig.newBuilder()
                .setEncoding(format.encoding() == AudioFormat.Encoding.MULAW ? RecognitionConfig.AudioEncoding.MULAW
                        : RecognitionConfig.AudioEncoding.LINEAR16)
                .setSampleRateHertz(format.sampleRate()).setLanguageCode(language).setModel(model)
                .setUseEnhanced(enhanced(model)).setEnableAutomaticPunctuation(true);
        List<String> phrases = keyterms.stream().map(String::strip)
                .filter(t -> !t.isEmpty() && t.length() <= MAX_PHRASE_CHARS).distinct().limit(MAX_PHRASES).toList();
        if (!phrases.isEmpty()) {
            recognition.addSpeechContexts(SpeechContext.newBuilder().addAllPhrases(phrases));
        }
        return StreamingRecognitionConfig.newBuilder().setConfig(recognition).setInterimResults(true)
                .setSingleUtterance(false).setEnableVoiceActivityEvents(true).build();
    }

    /** The models v1 serves in a premium variant only when asked ({@code use_enhanced}). */
    static boolean enhanced(String model) {
        return "phone_call".equals(model) || "video".equals(model);
    }

    /** Opens a stream unless one is open or being opened (or a retry waits). */
    private synchronized void connect() {
        if (closed || leg != null || connecting) {
            return;
        }
        if (firstFailure >= 0 && since(firstFailure) > budget.budget().toMillis()) {
            forgetFailures(); // the last trouble was long ago: a fresh budget
        }
        attempt();
    }

    private synchronized void attempt() {
        retryTimer = -1;
        if (closed) {
            return;
        }
        connecting = true;
        int number = ++attempt;
        connectTimer = vertx.setTimer(Math.max(1, timeoutMs), t -> connectTimedOut(number));
        Future<GrpcClientRequest<StreamingRecognizeRequest, StreamingRecognizeResponse>> opening;
        try {
            opening = connect.get();
        } catch (RuntimeException refused) {
            opening = Future.failedFuture(refused);
        }
        opening.onComplete(result -> attempted(number, result));
    }

    private synchronized void connectTimedOut(int number) {
        if (number != attempt || !connecting || closed) {
            return;
        }
        connectTimer = -1;
        attempt++; // the late connection, if it comes, is not this stream's any more
        connecting = false;
        failed(PROVIDER + ": no connection within " + timeoutMs + " ms", false);
    }

    private synchronized void attempted(int number,
            AsyncResult<GrpcClientRequest<StreamingRecognizeRequest, StreamingRecognizeResponse>> result) {
        if (number != attempt || closed) {
            if (result.succeeded()) {
                result.result().cancel();
            }
            return;
        }
        connecting = false;
        cancelTimer(connectTimer);
        connectTimer = -1;
        if (result.failed()) {
            if (result.cause() instanceof SpeechRequests.Said said && !said.again) { // a token refused: no retry
                giveUp(PROVIDER + ": " + said.getMessage());
            } else {
                failed(PROVIDER + ": " + result.cause().getMessage(), false);
            }
            return;
        }
        Leg opened = new Leg(result.result(), unsettledFrom);
        leg = opened;
        opened.call.exceptionHandler(e -> broken(opened, e.toString()));
        opened.call.response().onComplete(response -> responded(opened, response));
        if (!write(opened, config)) {
            return;
        }
        for (byte[] chunk : unsettled) {
            if (finalizeAt >= 0 && opened.sent >= finalizeAt) {
                break; // what the caller said after the finalize goes to the next stream
            }
            if (!write(opened, audioRequest(chunk))) {
                return;
            }
            opened.sent += chunk.length;
        }
        if (finalizeAt >= 0 && opened.sent >= finalizeAt) {
            halfClose(opened);
        }
        opened.rotateTimer = vertx.setTimer(Math.max(1, rotateMs), t -> rotateDue(opened));
        opened.limitTimer = vertx.setTimer(Math.max(1, rotateMs + rotateMs / 8), t -> rotate(opened));
    }

    private static StreamingRecognizeRequest audioRequest(byte[] chunk) {
        return StreamingRecognizeRequest.newBuilder().setAudioContent(ByteString.copyFrom(chunk)).build();
    }

    /** Writes a request on the leg; false (and the leg given up as broken) when it cannot be written any more. */
    private boolean write(Leg to, StreamingRecognizeRequest request) {
        try {
            to.call.write(request);
            return true;
        } catch (IllegalStateException cancelled) {
            broken(to, cancelled.getMessage());
            return false;
        }
    }

    private synchronized void responded(Leg from,
            AsyncResult<GrpcClientResponse<StreamingRecognizeRequest, StreamingRecognizeResponse>> result) {
        if (result.failed()) {
            broken(from, result.cause().toString());
            return;
        }
        GrpcClientResponse<StreamingRecognizeRequest, StreamingRecognizeResponse> response = result.result();
        response.handler(message -> response(from, message));
        response.errorHandler(error -> broken(from, "reset (" + error + ")"));
        response.exceptionHandler(e -> broken(from, e.toString()));
        // a status in the headers (a trailers-only answer) was decoded by Vert.x; one in the trailers was not
        boolean decoded = response.headers().get("grpc-status") != null;
        response.endHandler(v -> ended(from, response.status(), decoded ? response.statusMessage()
                : percentDecoded(response.statusMessage())));
    }

    private synchronized void response(Leg from, StreamingRecognizeResponse response) {
        if (from != leg || closed || response == null) {
            return;
        }
        if (response.hasError() && response.getError().getCode() != 0) { // an error said in a response: the end
            ended(from, GrpcStatus.valueOf(response.getError().getCode()), response.getError().getMessage());
            from.call.cancel();
            return;
        }
        StringBuilder interim = new StringBuilder();
        for (StreamingRecognitionResult result : response.getResultsList()) {
            String transcript = result.getAlternativesCount() == 0 ? ""
                    : result.getAlternatives(0).getTranscript();
            if (result.getIsFinal()) {
                settled(from, result.hasResultEndTime() ? from.from + bytes(result.getResultEndTime()) : -1);
                utterance = false;
                finalSinceFinalize = true;
                if (!transcript.isBlank()) {
                    listener.transcript(transcript.strip(), true);
                }
            } else {
                interim.append(transcript);
            }
        }
        if (!interim.isEmpty() && !interim.toString().isBlank()) {
            utterance = true;
            listener.transcript(interim.toString().strip(), false);
        }
        switch (response.getSpeechEventType()) {
            case SPEECH_ACTIVITY_BEGIN -> utterance = true;
            case SPEECH_ACTIVITY_END -> {
                if (from.rotateDue) {
                    rotate(from); // the utterance ends: its final comes with the half-close
                }
            }
            case END_OF_SINGLE_UTTERANCE -> {
                from.deaf = true; // Google hears nothing more on this stream
                halfClose(from);
            }
            default -> {
                // no event, or a voice activity time-out (none is asked for)
            }
        }
        if (from.rotateDue && !utterance && from == leg) {
            rotate(from);
        }
    }

    /** A duration on a stream's audio as bytes of the call's audio. */
    private long bytes(Duration offset) {
        return Math.round((offset.getSeconds() + offset.getNanos() / 1e9) * format.bytes(1_000));
    }

    /** A final came on {@code from}: the audio up to {@code at} (all it was sent when -1) is settled. */
    private void settled(Leg from, long at) {
        long upTo = at < 0 ? from.sent : Math.min(at, from.sent);
        while (!unsettled.isEmpty() && unsettledFrom + unsettled.peekFirst().length <= upTo) {
            forgetOldest();
        }
    }

    private void forgetOldest() {
        byte[] chunk = unsettled.pollFirst();
        unsettledFrom += chunk.length;
        unsettledBytes -= chunk.length;
    }

    /** The call ended with a status (in its trailers, or as an error in a response). */
    private synchronized void ended(Leg from, GrpcStatus given, String message) {
        GrpcStatus status = given == null ? GrpcStatus.UNKNOWN : given; // no status, or a code gRPC does not know
        if (from != leg) {
            return;
        }
        if (closed) {
            drop(from);
            return;
        }
        if (status == GrpcStatus.OK && from.halfClosed) {
            drained(from);
            return;
        }
        String why = status == GrpcStatus.OK ? PROVIDER + " ended the stream" : PROVIDER + ": "
                + (message == null || message.isBlank() ? "an error" : message) + " (" + status.name() + ")";
        if (REFUSALS.contains(status)) {
            drop(from);
            giveUp(why);
            return;
        }
        drop(from);
        failed(why, true);
    }

    /**
     * A half-closed stream ended as asked: all it was sent is settled, the finalize it carried answered (unless it had
     * stopped hearing: then only its finals settled anything, and the next stream is sent the rest and the finalize).
     */
    private void drained(Leg from) {
        drop(from);
        if (!from.deaf) {
            settled(from, -1);
        }
        if (!from.deaf && finalizeAt >= 0 && finalizeAt <= from.sent) {
            finalizeAt = -1;
            if (!finalSinceFinalize) {
                listener.transcript("", true);
            }
        }
        forgetFailures();
        connect();
    }

    /** The leg is over for us: its timers stopped, no longer the stream audio goes to. */
    private void drop(Leg from) {
        cancelTimer(from.drainTimer);
        cancelTimer(from.rotateTimer);
        cancelTimer(from.limitTimer);
        if (leg == from) {
            leg = null;
        }
    }

    /** The connection or the call broke: the leg is cancelled and another opened within the budget. */
    private synchronized void broken(Leg from, String why) {
        if (from != leg) {
            return;
        }
        drop(from);
        from.call.cancel();
        if (!closed) {
            failed(PROVIDER + ": " + why, true);
        }
    }

    /**
     * A try failed: another is opened at once after a first drop of a stream that was working ({@code dropped}), or
     * after the budget's wait; the stream fails when the budget is spent.
     */
    private void failed(String why, boolean dropped) {
        if (closed) {
            return;
        }
        if (dropped && (firstFailure < 0 || since(firstFailure) > budget.budget().toMillis())) {
            LOG.log(System.Logger.Level.INFO, "{0}; opening it again", why);
            forgetFailures();
            firstFailure = System.nanoTime();
            attempt();
            return;
        }
        failures++;
        if (firstFailure < 0) {
            firstFailure = System.nanoTime();
        }
        Optional<java.time.Duration> wait = budget.next(failures, java.time.Duration.ofMillis(since(firstFailure)),
                null, ThreadLocalRandom.current().nextDouble());
        if (wait.isEmpty()) {
            giveUp(why);
            return;
        }
        LOG.log(System.Logger.Level.INFO, "{0}; trying again in {1} ms", why, wait.get().toMillis());
        connecting = true;
        retryTimer = vertx.setTimer(Math.max(1, wait.get().toMillis()), t -> attempt());
    }

    private void giveUp(String why) {
        if (closed) {
            return;
        }
        closed = true;
        cancelTimer(retryTimer);
        cancelTimer(connectTimer);
        if (leg != null) {
            Leg last = leg;
            drop(last);
            last.call.cancel();
        }
        listener.failed(why);
    }

    /** Half-closes the leg: Google sends the finals of all it heard and ends the call, within the time limit. */
    private void halfClose(Leg to) {
        if (to.halfClosed || to != leg) {
            return;
        }
        to.halfClosed = true;
        try {
            to.call.end();
        } catch (IllegalStateException cancelled) {
            broken(to, cancelled.getMessage());
            return;
        }
        to.drainTimer = vertx.setTimer(Math.max(1, timeoutMs), t -> drainTimedOut(to));
    }

    private synchronized void drainTimedOut(Leg to) {
        if (to != leg || closed) {
            return;
        }
        drop(to);
        to.call.cancel();
        failed(PROVIDER + ": no answer within " + timeoutMs + " ms", false);
    }

    /** The stream has lived long: replaced now between utterances, else at the utterance's end. */
    private synchronized void rotateDue(Leg on) {
        if (on != leg || closed) {
            return;
        }
        on.rotateDue = true;
        if (!utterance) {
            rotate(on);
        }
    }

    private synchronized void rotate(Leg on) {
        if (on == leg && !closed) {
            LOG.log(System.Logger.Level.DEBUG, "{0}: replacing a stream before its time limit", PROVIDER);
            halfClose(on);
        }
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

    /** What is pending becomes one request: kept until settled, and sent while a live stream is open. */
    private void send() {
        byte[] chunk = pending.toByteArray();
        pending.reset();
        unsettled.addLast(chunk);
        unsettledBytes += chunk.length;
        boolean live = leg != null && !leg.halfClosed;
        int keep = live && !utterance ? IDLE_MS : UNSETTLED_MS;
        while (unsettledBytes > format.bytes(keep) && unsettled.size() > 1) {
            forgetOldest(); // what a new stream need not hear again (or could not: too long unsettled)
        }
        if (finalizeAt >= 0 && finalizeAt < unsettledFrom) {
            finalizeAt = -1; // nothing heard before it is kept: there is no utterance left for it to end
        }
        if (live && write(leg, audioRequest(chunk))) {
            leg.sent += chunk.length;
        }
    }

    @Override
    public synchronized void finalizeNow() {
        if (closed) {
            return;
        }
        if (pending.size() > 0) {
            send();
        }
        finalizeAt = unsettledFrom + unsettledBytes;
        finalSinceFinalize = false;
        if (leg != null && leg.sent >= finalizeAt) {
            halfClose(leg);
        }
    }

    @Override
    public synchronized double seconds() {
        return bytes / (double) format.bytes(1_000);
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        cancelTimer(retryTimer);
        cancelTimer(connectTimer);
        Leg last = leg;
        if (last == null) {
            return;
        }
        cancelTimer(last.rotateTimer);
        cancelTimer(last.limitTimer);
        if (!last.halfClosed) {
            last.halfClosed = true;
            try {
                last.call.end(); // Google ends the call once it has heard the rest; nothing more is reported
            } catch (IllegalStateException cancelled) {
                return;
            }
        }
        cancelTimer(last.drainTimer);
        last.drainTimer = vertx.setTimer(Math.max(1, timeoutMs), t -> last.call.cancel());
    }

    private void forgetFailures() {
        failures = 0;
        firstFailure = -1;
    }

    private void cancelTimer(long timer) {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    private static long since(long nanos) {
        return (System.nanoTime() - nanos) / 1_000_000;
    }

    /** gRPC's percent-encoding of a status message undone (only %XX: a '+' is a plus). */
    static String percentDecoded(String message) {
        if (message == null || message.indexOf('%') < 0) {
            return message;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] raw = message.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < raw.length; i++) {
            int high = i + 2 < raw.length && raw[i] == '%' ? Character.digit(raw[i + 1], 16) : -1;
            int low = high >= 0 ? Character.digit(raw[i + 2], 16) : -1;
            if (low >= 0) {
                out.write(high * 16 + low);
                i += 2;
            } else {
                out.write(raw[i]);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
