package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.SILENCE;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.WORDS;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.cloud.speech.v1.RecognitionConfig;
import com.google.cloud.speech.v1.SpeechRecognitionAlternative;
import com.google.cloud.speech.v1.StreamingRecognitionConfig;
import com.google.cloud.speech.v1.StreamingRecognitionResult;
import com.google.cloud.speech.v1.StreamingRecognizeRequest;
import com.google.cloud.speech.v1.StreamingRecognizeResponse;
import com.google.protobuf.Duration;
import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.ProviderChecks;
import dev.voiceagent.adapters.outbound.speech.SpeechTestKit.Heard;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClientOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.SocketAddress;
import io.vertx.grpc.client.GrpcClient;
import io.vertx.grpc.client.GrpcClientOptions;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerRequest;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Google Cloud Speech-to-Text v1 streaming as a call listens with it, against a local gRPC server (cleartext HTTP/2)
 * that implements {@code google.cloud.speech.v1.Speech/StreamingRecognize} as Google does and is an oracle of the
 * audio (each 20 ms frame's first byte names the word it carries, {@link #SILENCE} none): the key as
 * {@code x-goog-api-key}, the configuration first (the call's encoding and rate, language, model, punctuation, the
 * dictionary as phrases, interim results and voice activity events), then the audio in 100 ms requests; interim
 * results split into a stable and an unstable part, Google's own final at a silence after words, the finals a
 * half-close brings, {@code END_OF_SINGLE_UTTERANCE}. And the faults: a refusal ({@code UNAUTHENTICATED},
 * {@code PERMISSION_DENIED}, an error said in a response: failed with Google's words, no second try), a call never
 * answered (timed out, tried again), a connection that never speaks HTTP/2 (timed out, three tries), a stream ended
 * mid-utterance (opened again, the utterance's audio sent again, heard once; between utterances only the last few
 * seconds), a stream replaced
 * before Google's time limit; what is refused at open, and the key check. A service account signs in with an access
 * token (a JWT bearer grant at a local token endpoint that verifies the assertion) as {@code authorization: Bearer}
 * metadata, the token kept for the next calls and the key check; a refused one fails the stream in Google's words.
 */
class GoogleListenTest {

    /** The keys the server takes start so; each test has its own, so a stream a test left never counts for another. */
    private static final String KEY = "google-key";
    private static volatile String key = KEY;
    private static int tests;
    private static final ServiceMethod<StreamingRecognizeRequest, StreamingRecognizeResponse> SERVED =
            ServiceMethod.server(ServiceName.create("google.cloud.speech.v1.Speech"), "StreamingRecognize",
                    GrpcMessageEncoder.encoder(), GrpcMessageDecoder.decoder(StreamingRecognizeRequest.parser()));

    /** What the server does with the next call. */
    enum Behaviour {
        /** Recognizes, as Google does. */
        ANSWER,
        /** Recognizes one utterance, then says END_OF_SINGLE_UTTERANCE and hears nothing more. */
        SINGLE_UTTERANCE,
        /** Takes the call and its requests, and never answers anything. */
        HANG
    }

    /** One call as the server saw it. */
    static final class Call {
        final GrpcServerRequest<StreamingRecognizeRequest, StreamingRecognizeResponse> request;
        final Context context;
        final String key;
        final String authorization;
        final Behaviour behaviour;
        /** "config", "audio" for each request, "half-close" at the end of the client's requests, in order. */
        final List<String> received = new CopyOnWriteArrayList<>();
        /** The size of each audio request. */
        final List<Integer> messages = new CopyOnWriteArrayList<>();
        /** The word of each 20 ms frame received, in order. */
        final List<Integer> frames = new CopyOnWriteArrayList<>();
        volatile StreamingRecognitionConfig config;
        int frameBytes;
        int utteranceFrom;
        int lastWordEnd;
        boolean speaking;
        boolean deaf;
        boolean over;

        Call(GrpcServerRequest<StreamingRecognizeRequest, StreamingRecognizeResponse> request, Behaviour behaviour) {
            this.request = request;
            this.context = Vertx.currentContext();
            this.key = request.headers().get("x-goog-api-key");
            this.authorization = request.headers().get("authorization");
            this.behaviour = behaviour;
        }
    }

    /** Keys the server refuses: with a status at once, or (the last) with an error in its first response. */
    private static final List<String> REFUSED = List.of("bad-key", "denied-key", "project-key");
    private static final Deque<Behaviour> BEHAVIOURS = new ConcurrentLinkedDeque<>();
    private static final List<Call> CALLS = new CopyOnWriteArrayList<>();
    private static final List<Long> CALLED_AT = new CopyOnWriteArrayList<>();
    private static final List<HttpServerRequest> CHECKS = new CopyOnWriteArrayList<>();
    /** The token requests, each its JWT's header and claims and whether its signature is the account's. */
    private static final List<JsonObject> TOKEN_REQUESTS = new CopyOnWriteArrayList<>();
    /** The service account's key (the token endpoint knows its public half), and one Google never issued. */
    private static KeyPair accountKey;
    private static KeyPair otherKey;
    private static Vertx vertx;
    private static String base;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static SpeechProviders speech;
    private static GrpcClient client;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        GrpcServer grpc = GrpcServer.server(vertx).callHandler(SERVED, GoogleListenTest::call);
        HttpServer server = vertx.createHttpServer().requestHandler(request -> {
            if (request.path().startsWith("/v1/operations")) {
                check(request);
            } else if (request.path().equals("/token")) {
                request.body().onSuccess(body -> token(request, body.toString(StandardCharsets.US_ASCII)));
            } else {
                grpc.handle(request);
            }
        });
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), java.time.Duration.ofMillis(800));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("google_stt", base)
                .pointing("google_oauth", base);
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        accountKey = rsa.generateKeyPair();
        otherKey = rsa.generateKeyPair();
        speech = new SpeechProviders(http, apis, vertx, java.time.Duration.ofMillis(800), 3,
                java.time.Duration.ofMillis(200), java.time.Duration.ofSeconds(2));
        client = GrpcClient.client(vertx, new GrpcClientOptions().setTransportOptions(new HttpClientOptions()
                .setHttp2ClearTextUpgrade(false)));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        key = KEY + "-" + ++tests;
        BEHAVIOURS.clear();
        CALLS.clear();
        CALLED_AT.clear();
        CHECKS.clear();
        TOKEN_REQUESTS.clear();
    }

    /** GET /v1/operations as Google answers it: the key (or a token the token endpoint issued) checked first. */
    private static void check(HttpServerRequest request) {
        CHECKS.add(request);
        String given = request.getHeader("x-goog-api-key");
        String bearer = request.getHeader("Authorization");
        int status = given != null && given.startsWith(KEY) || bearer != null && bearer.startsWith("Bearer ya29-")
                ? 200 : "denied-key".equals(given) ? 403 : 400;
        JsonObject body = status == 200 ? new JsonObject() : new JsonObject().put("error", new JsonObject()
                .put("code", status).put("status", status == 403 ? "PERMISSION_DENIED" : "INVALID_ARGUMENT")
                .put("message", status == 403 ? "Cloud Speech-to-Text API has not been used in project 123456 before"
                        + " or it is disabled." : "API key not valid. Please pass a valid API key."));
        request.response().setStatusCode(status).putHeader("Content-Type", "application/json").end(body.encode());
    }

    /**
     * Google's token endpoint, the JWT bearer grant: the assertion's RS256 signature checked with the account's public
     * key; a token an hour long, named after the test's key (so the test's calls are known by it), or invalid_grant.
     */
    private static void token(HttpServerRequest request, String form) {
        Map<String, String> fields = new HashMap<>();
        for (String pair : form.split("&")) {
            String[] kv = pair.split("=", 2);
            fields.put(kv[0], kv.length < 2 ? "" : URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        String[] jwt = fields.getOrDefault("assertion", "").split("\\.");
        boolean signed;
        try {
            Signature rs256 = Signature.getInstance("SHA256withRSA");
            rs256.initVerify(accountKey.getPublic());
            rs256.update((jwt[0] + "." + jwt[1]).getBytes(StandardCharsets.US_ASCII));
            signed = rs256.verify(Base64.getUrlDecoder().decode(jwt[2]));
        } catch (Exception e) {
            signed = false;
        }
        TOKEN_REQUESTS.add(new JsonObject().put("grant", fields.get("grant_type")).put("signed", signed)
                .put("header", new JsonObject(new String(Base64.getUrlDecoder().decode(jwt[0]),
                        StandardCharsets.UTF_8)))
                .put("claims", new JsonObject(new String(Base64.getUrlDecoder().decode(jwt[1]),
                        StandardCharsets.UTF_8))));
        if (!signed) {
            request.response().setStatusCode(400).putHeader("Content-Type", "application/json")
                    .end("{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}");
            return;
        }
        request.response().putHeader("Content-Type", "application/json").end(new JsonObject()
                .put("access_token", "ya29-" + key + "-" + TOKEN_REQUESTS.size()).put("expires_in", 3_599)
                .put("token_type", "Bearer").encode());
    }

    /** A service account's JSON key, as the Google Cloud console downloads it. */
    private static String credentials(String email, KeyPair pair) {
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'})
                .encodeToString(pair.getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        return new JsonObject().put("type", "service_account").put("project_id", "voice-agent")
                .put("private_key_id", "kid-1").put("private_key", pem).put("client_email", email)
                .put("token_uri", "https://oauth2.googleapis.com/token").encode();
    }

    /** StreamingRecognize: the key or token checked at once (a trailers-only refusal), then the requests. */
    private static void call(GrpcServerRequest<StreamingRecognizeRequest, StreamingRecognizeResponse> request) {
        String given = request.headers().get("x-goog-api-key");
        String bearer = request.headers().get("authorization");
        boolean current = given != null && (key.equals(given) || REFUSED.contains(given))
                || bearer != null && bearer.startsWith("Bearer ya29-" + key + "-");
        Behaviour behaviour = !current || BEHAVIOURS.isEmpty() ? Behaviour.ANSWER : BEHAVIOURS.pollFirst();
        Call call = new Call(request, behaviour);
        if (current) {
            CALLED_AT.add(System.nanoTime());
            CALLS.add(call);
        }
        if ("bad-key".equals(call.key)) {
            request.response().status(GrpcStatus.UNAUTHENTICATED).statusMessage("Request had invalid authentication"
                    + " credentials. Expected OAuth 2 access token, login cookie or other valid authentication"
                    + " credential.").end();
            return;
        }
        if ("denied-key".equals(call.key)) {
            request.response().status(GrpcStatus.PERMISSION_DENIED).statusMessage("Cloud Speech-to-Text API has not"
                    + " been used in project 123456 before or it is disabled.").end();
            return;
        }
        request.handler(message -> {
            if (message.hasStreamingConfig()) {
                call.received.add("config");
                if (call.config == null) {
                    call.config = message.getStreamingConfig();
                    RecognitionConfig config = call.config.getConfig();
                    call.frameBytes = config.getSampleRateHertz() / 1_000 * 20
                            * (config.getEncoding() == RecognitionConfig.AudioEncoding.MULAW ? 1 : 2);
                }
                if ("project-key".equals(call.key)) { // the call stays open: the error in the response is the end
                    call.request.response().write(StreamingRecognizeResponse.newBuilder().setError(com.google.rpc
                            .Status.newBuilder().setCode(GrpcStatus.FAILED_PRECONDITION.code).setMessage("Billing"
                                    + " is disabled for project 123456.")).build());
                }
                return;
            }
            call.received.add("audio");
            call.messages.add(message.getAudioContent().size());
            if (call.behaviour != Behaviour.HANG) {
                heard(call, message.getAudioContent().toByteArray());
            }
        });
        request.endHandler(v -> {
            call.received.add("half-close");
            if (call.behaviour != Behaviour.HANG && !call.over) {
                if (call.speaking) {
                    endpoint(call);
                }
                call.over = true;
                request.response().end();
            }
        });
    }

    /** The words of an audio request: SPEECH_ACTIVITY_BEGIN, an interim, a final at a silence after words. */
    private static void heard(Call call, byte[] audio) {
        if (call.config == null) {
            fail(call, GrpcStatus.INVALID_ARGUMENT, "Malordered Data Received. Send exactly one config, followed"
                    + " by audio data.");
            return;
        }
        if (call.deaf || call.over) {
            return;
        }
        for (int at = 0; at + call.frameBytes <= audio.length; at += call.frameBytes) {
            int word = audio[at];
            call.frames.add(word);
            if (word != SILENCE) {
                if (!call.speaking) {
                    call.speaking = true;
                    call.request.response().write(event(StreamingRecognizeResponse.SpeechEventType
                            .SPEECH_ACTIVITY_BEGIN));
                }
                call.lastWordEnd = call.frames.size();
            } else if (call.speaking) {
                endpoint(call);
                if (call.deaf) {
                    return;
                }
            }
        }
        if (call.speaking) {
            List<String> words = words(call);
            StreamingRecognizeResponse.Builder interim = StreamingRecognizeResponse.newBuilder();
            if (words.size() > 1) {
                interim.addResults(result(String.join(" ", words.subList(0, words.size() - 1)), false, 0.9f, -1));
            }
            interim.addResults(result((words.size() > 1 ? " " : "") + words.getLast(), false, 0.01f, -1));
            call.request.response().write(interim.build());
        }
    }

    /** The utterance ends: SPEECH_ACTIVITY_END, its final (punctuated), END_OF_SINGLE_UTTERANCE if so asked. */
    private static void endpoint(Call call) {
        String said = String.join(" ", words(call));
        call.speaking = false;
        call.request.response().write(event(StreamingRecognizeResponse.SpeechEventType.SPEECH_ACTIVITY_END));
        call.request.response().write(StreamingRecognizeResponse.newBuilder().addResults(result(said.substring(0, 1)
                .toUpperCase(Locale.ROOT) + said.substring(1) + ".", true, 0, call.lastWordEnd * 20L)).build());
        call.utteranceFrom = call.frames.size();
        if (call.behaviour == Behaviour.SINGLE_UTTERANCE) {
            call.request.response().write(event(StreamingRecognizeResponse.SpeechEventType.END_OF_SINGLE_UTTERANCE));
            call.deaf = true;
        }
    }

    private static List<String> words(Call call) {
        List<String> words = new ArrayList<>();
        int previous = -1;
        for (int i = call.utteranceFrom; i < call.frames.size(); i++) {
            int word = call.frames.get(i);
            if (word != SILENCE && word != previous) {
                words.add(WORDS[word]);
            }
            previous = word;
        }
        return words;
    }

    private static StreamingRecognitionResult result(String transcript, boolean isFinal, float stability,
            long endMs) {
        StreamingRecognitionResult.Builder result = StreamingRecognitionResult.newBuilder().setIsFinal(isFinal)
                .setStability(stability).addAlternatives(SpeechRecognitionAlternative.newBuilder()
                        .setTranscript(transcript).setConfidence(isFinal ? 0.92f : 0));
        if (endMs >= 0) {
            result.setResultEndTime(Duration.newBuilder().setSeconds(endMs / 1_000)
                    .setNanos((int) (endMs % 1_000) * 1_000_000));
        }
        return result.build();
    }

    private static StreamingRecognizeResponse event(StreamingRecognizeResponse.SpeechEventType type) {
        return StreamingRecognizeResponse.newBuilder().setSpeechEventType(type).build();
    }

    /** Google ends the call with an error status (in the trailers, after what it sent). */
    private static void fail(Call call, GrpcStatus status, String message) {
        call.context.runOnContext(v -> {
            if (!call.over) {
                call.over = true;
                call.request.response().status(status).statusMessage(message).end();
            }
        });
    }

    /** The caller says {@code word} for {@code frames} 20 ms frames of the format. */
    private static void say(SpeechToText.Stream stream, AudioFormat format, int word, int frames)
            throws InterruptedException {
        for (int i = 0; i < frames; i++) {
            byte[] frame = new byte[format.bytes(20)];
            frame[0] = (byte) word;
            stream.audio(frame);
            Thread.sleep(word == SILENCE ? 1 : 5);
        }
    }

    private static void say(SpeechToText.Stream stream, int word, int frames) throws InterruptedException {
        say(stream, AudioFormat.MULAW_8K, word, frames);
    }

    /** The word of every frame the server heard, all calls together. */
    private static List<Integer> allFrames() {
        return CALLS.stream().flatMap(c -> c.frames.stream()).toList();
    }

    private static GoogleListen listen(Heard heard, long timeoutMs, long rotateMs) {
        return listen(heard, timeoutMs, rotateMs, Integer.parseInt(base.substring(base.lastIndexOf(':') + 1)));
    }

    private static GoogleListen listen(Heard heard, long timeoutMs, long rotateMs, int port) {
        String given = key;
        SocketAddress address = SocketAddress.inetSocketAddress(port, "127.0.0.1");
        return new GoogleListen(() -> client.request(address, GoogleListen.STREAMING_RECOGNIZE).map(call -> {
            call.headers().set("x-goog-api-key", given);
            return call;
        }), vertx, new RetryBudget(3, java.time.Duration.ofMillis(200), java.time.Duration.ofSeconds(2)),
                AudioFormat.MULAW_8K, heard, GoogleListen.config("latest_long", "en-US", AudioFormat.MULAW_8K,
                        List.of()), timeoutMs, rotateMs);
    }

    private static ModelEndpoint google(String key, String model, Map<String, Object> more) {
        Map<String, Object> settings = new HashMap<>(Map.of("provider", "google", "model", model, "language",
                "en-US", "location", "global"));
        settings.putAll(more);
        return new ModelEndpoint(ModelService.STT, "google", model, null, key == null ? List.of() : List.of(key),
                settings, false);
    }

    private static ModelEndpoint google(String key) {
        return google(key, "latest_long", Map.of());
    }

    @Test
    void theStreamIsConfiguredAsTheCallIsAndTheAudioGoesIn100MsRequests() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(google(key).withKeyterms(List.of("Acme Pay", " Zyrtec ", "Acme Pay",
                "x".repeat(101))), AudioFormat.MULAW_8K, heard);
        await(() -> CALLS.size() == 1, "the call");
        Call call = CALLS.getFirst();
        assertThat(call.request.fullMethodName()).isEqualTo("google.cloud.speech.v1.Speech/StreamingRecognize");
        assertThat(call.key).as("the key as Google's API-key metadata").isEqualTo(key);

        say(stream, 1, 23); // 460 ms: four requests of 100 ms, and 60 ms not yet one
        await(() -> call.messages.size() == 4, "four requests");
        await(() -> heard.events.contains("interim:where"), "an interim");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the final the half-close brings");
        assertThat(heard.finals()).containsExactly("final:Where.");
        assertThat(call.received).as("the configuration first, then the audio, the 60 ms left before the half-close")
                .containsExactly("config", "audio", "audio", "audio", "audio", "audio", "half-close");
        assertThat(call.messages).containsExactly(800, 800, 800, 800, 480);

        StreamingRecognitionConfig streaming = call.config;
        assertThat(streaming.getInterimResults()).isTrue();
        assertThat(streaming.getSingleUtterance()).isFalse();
        assertThat(streaming.getEnableVoiceActivityEvents()).isTrue();
        RecognitionConfig config = streaming.getConfig();
        assertThat(config.getEncoding()).as("the phone's μ-law as it is").isEqualTo(RecognitionConfig.AudioEncoding
                .MULAW);
        assertThat(config.getSampleRateHertz()).isEqualTo(8_000);
        assertThat(config.getLanguageCode()).isEqualTo("en-US");
        assertThat(config.getModel()).isEqualTo("latest_long");
        assertThat(config.getUseEnhanced()).isFalse();
        assertThat(config.getEnableAutomaticPunctuation()).isTrue();
        assertThat(config.getSpeechContextsList()).singleElement().satisfies(context -> assertThat(context
                .getPhrasesList()).as("trimmed, once each, none longer than Google takes").containsExactly(
                        "Acme Pay", "Zyrtec"));

        await(() -> CALLS.size() == 2, "the next stream, opened once the first has ended");
        say(stream, 2, 10);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the next utterance on it");
        assertThat(heard.finals()).containsExactly("final:Where.", "final:Is.");
        assertThat(CALLS.get(1).frames).as("only what was said after the first final").containsOnly(2).hasSize(10);
        assertThat(stream.seconds()).isEqualTo(0.66);
        stream.close();
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void aBrowsersPcmIsSentAsItIsAndTheEnhancedModelsAreAskedForTheirVariant() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(google(key, "latest_short", Map.of("language", "fr-FR")),
                AudioFormat.PCM_16K, heard);
        say(stream, AudioFormat.PCM_16K, 3, 10);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the final");
        assertThat(heard.finals()).containsExactly("final:My.");
        Call call = CALLS.getFirst();
        RecognitionConfig config = call.config.getConfig();
        assertThat(config.getEncoding()).isEqualTo(RecognitionConfig.AudioEncoding.LINEAR16);
        assertThat(config.getSampleRateHertz()).isEqualTo(16_000);
        assertThat(config.getLanguageCode()).isEqualTo("fr-FR");
        assertThat(config.getModel()).isEqualTo("latest_short");
        assertThat(config.getSpeechContextsList()).isEmpty();
        assertThat(call.messages).containsExactly(3_200, 3_200);
        stream.close();

        assertThat(GoogleListen.config("phone_call", "en-US", AudioFormat.MULAW_8K, List.of()).getConfig()
                .getUseEnhanced()).isTrue();
        assertThat(GoogleListen.config("telephony", "en-US", AudioFormat.MULAW_8K, List.of()).getConfig()
                .getUseEnhanced()).isFalse();
    }

    @Test
    void interimsJoinTheStableAndUnstableWordsAndGooglesOwnFinalsPassOnAsTheyCome() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(google(key), AudioFormat.MULAW_8K, heard);
        say(stream, 1, 10);
        say(stream, 2, 10);
        say(stream, SILENCE, 10); // Google hears the utterance end
        await(() -> heard.finals().size() == 1, "Google's own final");
        assertThat(heard.events).contains("interim:where", "interim:where is");
        assertThat(CALLS).as("no new stream for Google's own final").hasSize(1);

        say(stream, 3, 10);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the final the finalize brings");
        await(() -> CALLS.size() == 2, "the next stream");
        say(stream, SILENCE, 10);
        stream.finalizeNow(); // nothing was said: an empty final says there is nothing to wait for
        await(() -> heard.finals().size() == 3, "the empty final");
        assertThat(heard.finals()).containsExactly("final:Where is.", "final:My.", "final:");
        assertThat(allFrames().stream().filter(w -> w != SILENCE).toList()).as("each word sent once")
                .hasSize(30);
        stream.close();
    }

    @Test
    void endOfSingleUtteranceEndsTheStreamAndTheNextOneHearsWhatFollowed() throws Exception {
        BEHAVIOURS.add(Behaviour.SINGLE_UTTERANCE);
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(google(key), AudioFormat.MULAW_8K, heard);
        say(stream, 1, 10);
        say(stream, SILENCE, 5);
        say(stream, 2, 10); // said while (and after) Google says it hears no more
        await(() -> heard.finals().size() == 1, "the first utterance");
        await(() -> CALLS.size() == 2, "the next stream");
        await(() -> CALLS.getFirst().received.contains("half-close"), "the first stream half-closed");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "what followed, on the next stream");
        assertThat(heard.finals()).containsExactly("final:Where.", "final:Is.");
        assertThat(CALLS.get(1).frames).as("sent again from the first final's end").contains(2).doesNotContain(1);
        assertThat(CALLS.get(1).frames.stream().filter(w -> w == 2)).hasSize(10);
        stream.close();
    }

    @Test
    void aStreamEndedMidUtteranceIsOpenedAgainAndTheUtteranceIsHeardOnce() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(google(key), AudioFormat.MULAW_8K, heard);
        say(stream, 0, 10);
        stream.finalizeNow();
        await(() -> heard.finals().contains("final:Hello."), "the first utterance");
        await(() -> CALLS.size() == 2, "the second stream");

        say(stream, 1, 10); // "where" reaches the second stream, then Google ends it mid-utterance
        await(() -> heard.events.contains("interim:where"), "the utterance's start heard");
        fail(CALLS.get(1), GrpcStatus.UNAVAILABLE, "The service was unable to fulfill your request. Please try"
                + " again. [code=8a75]");
        await(() -> CALLS.size() == 3, "opened again at once");
        say(stream, 2, 10);
        say(stream, 3, 10);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the utterance across the drop");

        assertThat(heard.finals()).containsExactly("final:Hello.", "final:Where is my.");
        Call third = CALLS.get(2);
        assertThat(third.frames).as("the unsettled utterance first, then the rest; nothing settled sent again")
                .startsWith(1, 1, 1).doesNotContain(0).hasSize(30).endsWith(3);
        assertThat(stream.seconds()).as("the caller's audio counted once").isEqualTo(0.8);
        stream.close();
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void betweenUtterancesOnlyTheLastSecondsAreSentAgainNotABurstOfSilence() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(google(key), AudioFormat.MULAW_8K, heard);
        say(stream, 0, 10);
        say(stream, SILENCE, 5);
        await(() -> heard.finals().contains("final:Hello."), "Google's own final");
        say(stream, SILENCE, 250); // five seconds without a word while the agent speaks
        await(() -> CALLS.getFirst().frames.size() == 265, "the silence heard");
        fail(CALLS.getFirst(), GrpcStatus.INTERNAL, "Internal error encountered.");
        await(() -> CALLS.size() == 2 && CALLS.get(1).frames.size() == GoogleListen.IDLE_MS / 20,
                "the last " + GoogleListen.IDLE_MS + " ms sent again");
        Thread.sleep(200);
        assertThat(CALLS.get(1).frames).as("not five seconds").hasSize(GoogleListen.IDLE_MS / 20)
                .containsOnly(SILENCE);
        stream.close();
    }

    @Test
    void aRefusalFailsTheStreamOnceWithGooglesWordsAndIsNotTriedAgain() throws Exception {
        Heard unauthenticated = new Heard();
        SpeechToText.Stream stream = speech.open(google("bad-key"), AudioFormat.MULAW_8K, unauthenticated);
        say(stream, 1, 10);
        await(() -> !unauthenticated.events.isEmpty(), "the refusal");
        Thread.sleep(600);
        assertThat(unauthenticated.events).containsExactly("failed:Google Speech-to-Text: Request had invalid"
                + " authentication credentials. Expected OAuth 2 access token, login cookie or other valid"
                + " authentication credential. (UNAUTHENTICATED)");
        assertThat(CALLS).as("a refused key is not worth another try").hasSize(1);

        clear();
        Heard denied = new Heard();
        speech.open(google("denied-key"), AudioFormat.MULAW_8K, denied).audio(new byte[800]);
        await(() -> !denied.events.isEmpty(), "the refusal");
        Thread.sleep(600);
        assertThat(denied.events).containsExactly("failed:Google Speech-to-Text: Cloud Speech-to-Text API has not"
                + " been used in project 123456 before or it is disabled. (PERMISSION_DENIED)");
        assertThat(CALLS).hasSize(1);

        clear();
        Heard project = new Heard();
        speech.open(google("project-key"), AudioFormat.MULAW_8K, project).audio(new byte[800]);
        await(() -> !project.events.isEmpty(), "the error said in a response");
        Thread.sleep(600);
        assertThat(project.events).containsExactly("failed:Google Speech-to-Text: Billing is disabled for project"
                + " 123456. (FAILED_PRECONDITION)");
        assertThat(CALLS).hasSize(1);
    }

    @Test
    void aCallNeverAnsweredTimesOutAndIsTriedAgainWithTheAudioSaidMeanwhile() throws Exception {
        BEHAVIOURS.add(Behaviour.HANG);
        Heard heard = new Heard();
        GoogleListen stream = listen(heard, 400, GoogleListen.ROTATE_MS);
        say(stream, 1, 10);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the final, from the second call");
        assertThat(heard.finals()).containsExactly("final:Where.");
        assertThat(CALLS.getFirst().received).as("the first call took it all and said nothing")
                .containsExactly("config", "audio", "audio", "half-close");
        assertThat((CALLED_AT.get(1) - CALLED_AT.get(0)) / 1_000_000).as("the time limit, then a backoff")
                .isGreaterThanOrEqualTo(450);
        assertThat(CALLS.get(1).frames).hasSize(10).containsOnly(1);
        stream.close();

        clear();
        for (int i = 0; i < 5; i++) {
            BEHAVIOURS.add(Behaviour.HANG);
        }
        Heard failed = new Heard();
        GoogleListen unanswered = listen(failed, 400, GoogleListen.ROTATE_MS);
        say(unanswered, 1, 5);
        unanswered.finalizeNow();
        await(() -> !failed.events.isEmpty(), "the failure");
        Thread.sleep(600);
        assertThat(failed.events).containsExactly("failed:Google Speech-to-Text: no answer within 400 ms");
        assertThat(CALLS).as("three tries").hasSize(3);
    }

    @Test
    void aConnectionThatNeverSpeaksHttp2TimesOutAndFailsAfterTheTries() throws Exception {
        List<Long> accepted = new CopyOnWriteArrayList<>();
        NetServer silent = vertx.createNetServer().connectHandler(socket -> accepted.add(System.nanoTime()));
        silent.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        try {
            Heard failed = new Heard();
            long from = System.nanoTime();
            GoogleListen stream = listen(failed, 300, GoogleListen.ROTATE_MS, silent.actualPort());
            say(stream, 1, 5);
            stream.finalizeNow();
            await(() -> !failed.events.isEmpty(), "the failure");
            assertThat(failed.events).containsExactly("failed:Google Speech-to-Text: no connection within 300 ms");
            assertThat((System.nanoTime() - from) / 1_000_000).as("three tries, each its time limit")
                    .isGreaterThanOrEqualTo(900);
            assertThat(accepted).isNotEmpty();
        } finally {
            silent.close();
        }
    }

    @Test
    void aStreamIsReplacedBeforeGooglesTimeLimitBetweenUtterancesAndNothingIsLostOrHeardTwice() throws Exception {
        Heard heard = new Heard();
        GoogleListen stream = listen(heard, 800, 300);
        say(stream, 1, 10);
        say(stream, SILENCE, 5);
        await(() -> heard.finals().size() == 1, "the first utterance");
        await(() -> CALLS.size() >= 2, "a new stream once the first had lived its time");
        assertThat(CALLS.getFirst().received).last().isEqualTo("half-close");
        say(stream, 2, 10);
        say(stream, SILENCE, 5);
        await(() -> heard.finals().size() == 2, "the next utterance, on the new stream");
        assertThat(heard.finals()).containsExactly("final:Where.", "final:Is.");
        assertThat(allFrames().stream().filter(w -> w == 1)).hasSize(10);
        assertThat(allFrames().stream().filter(w -> w == 2)).hasSize(10);
        stream.close();
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void whatV1CannotServeIsRefusedAtOpenWithTheReason() {
        Heard heard = new Heard();
        assertThatThrownBy(() -> speech.open(google(null, "latest_long", Map.of("credentials",
                "{\"type\":\"service_account\"}")), AudioFormat.MULAW_8K, heard))
                .isInstanceOf(UnsupportedSpeechProvider.class)
                .hasMessage("Google Cloud Speech-to-Text: the service account's key lacks client_email or private_key");
        assertThatThrownBy(() -> speech.open(google(null), AudioFormat.MULAW_8K, heard))
                .isInstanceOf(UnsupportedSpeechProvider.class).hasMessageContaining("no API key");
        assertThatThrownBy(() -> speech.open(google(key, "chirp_3", Map.of()), AudioFormat.MULAW_8K, heard))
                .isInstanceOf(UnsupportedSpeechProvider.class).hasMessageContaining("v2");
        assertThatThrownBy(() -> speech.open(google(key, "latest_long", Map.of("location", "us-central1")),
                AudioFormat.MULAW_8K, heard)).isInstanceOf(UnsupportedSpeechProvider.class)
                .hasMessageContaining("us-central1");
        assertThat(CALLS).isEmpty();
    }

    @Test
    void aMultiRegionIsServedAtTheInstallationsAddressWhenItPointsGoogleElsewhere() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(google(key, "latest_long", Map.of("location", "eu")),
                AudioFormat.MULAW_8K, heard);
        await(() -> CALLS.size() == 1, "the call, at the test's address");
        stream.close();
    }

    @Test
    void theKeyIsCheckedByListingOperationsNoStreamOpened() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(google(key)).await().atMost(java.time.Duration.ofSeconds(5))).isEmpty();
        assertThat(CHECKS).singleElement().satisfies(r -> {
            assertThat(r.method().name()).isEqualTo("GET");
            assertThat(r.path()).isEqualTo("/v1/operations");
            assertThat(r.query()).isEqualTo("pageSize=1");
            assertThat(r.getHeader("x-goog-api-key")).isEqualTo(key);
        });
        assertThat(checks.problem(google("bad-key")).await().atMost(java.time.Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).contains("400", "API key not valid"));
        assertThat(checks.problem(google("denied-key")).await().atMost(java.time.Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Google API key")
                        .contains("403", "has not been used in project"));
        assertThat(checks.problem(google(null)).await().atMost(java.time.Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).contains("needs an API key or a service account"));
        assertThat(checks.problem(google(null, "latest_long", Map.of("credentials", "{}"))).await()
                .atMost(java.time.Duration.ofSeconds(5))).hasValueSatisfying(problem -> assertThat(problem)
                        .contains("lacks client_email or private_key"));
        assertThat(CALLS).isEmpty();
    }

    @Test
    void aServiceAccountSignsInWithABearerTokenAskedBeforeEachCallAndSharedWithTheKeyCheck() throws Exception {
        String email = "listener@voice-agent.iam.gserviceaccount.com";
        ModelEndpoint account = google(null, "latest_long", Map.of("credentials", credentials(email, accountKey)));
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(account, AudioFormat.MULAW_8K, heard);
        await(() -> CALLS.size() == 1 || !heard.events.isEmpty(), "the call");
        assertThat(heard.events).as("nothing failed").isEmpty();
        String bearer = "Bearer ya29-" + key + "-1";
        Call first = CALLS.getFirst();
        assertThat(first.authorization).as("the service account's token as the call's metadata").isEqualTo(bearer);
        assertThat(first.key).as("no API key").isNull();
        assertThat(TOKEN_REQUESTS).singleElement().satisfies(grant -> {
            assertThat(grant.getString("grant")).isEqualTo("urn:ietf:params:oauth:grant-type:jwt-bearer");
            assertThat(grant.getBoolean("signed")).as("RS256 with the account's key").isTrue();
            assertThat(grant.getJsonObject("header").getString("kid")).isEqualTo("kid-1");
            JsonObject claims = grant.getJsonObject("claims");
            assertThat(claims.getString("iss")).isEqualTo(email);
            assertThat(claims.getString("scope")).isEqualTo("https://www.googleapis.com/auth/cloud-platform");
            assertThat(claims.getString("aud")).as("the installation's token endpoint, not the file's token_uri")
                    .isEqualTo(base + "/token");
            assertThat(claims.getLong("exp") - claims.getLong("iat")).isEqualTo(3_600);
        });

        say(stream, 1, 10);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the final the half-close brings");
        await(() -> CALLS.size() == 2, "the next stream");
        assertThat(heard.finals()).containsExactly("final:Where.");
        assertThat(CALLS.get(1).authorization).as("the held token, asked for again before the call").isEqualTo(bearer);
        stream.close();

        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(account).await().atMost(java.time.Duration.ofSeconds(5))).isEmpty();
        assertThat(CHECKS).singleElement().satisfies(check -> {
            assertThat(check.path()).isEqualTo("/v1/operations");
            assertThat(check.getHeader("Authorization")).isEqualTo(bearer);
        });
        assertThat(TOKEN_REQUESTS).as("one token for the calls and the key check").hasSize(1);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void aRefusedServiceAccountFailsTheStreamInGooglesWordsWithoutAnotherTry() throws Exception {
        String email = "revoked@voice-agent.iam.gserviceaccount.com";
        ModelEndpoint revoked = google(null, "latest_long", Map.of("credentials", credentials(email, otherKey)));
        Heard heard = new Heard();
        speech.open(revoked, AudioFormat.MULAW_8K, heard).audio(new byte[800]);
        await(() -> !heard.events.isEmpty(), "the refusal");
        Thread.sleep(600);
        assertThat(heard.events).containsExactly("failed:Google Speech-to-Text: the service account " + email
                + " got no token (HTTP 400: invalid_grant: Invalid JWT Signature.)");
        assertThat(TOKEN_REQUESTS).as("a refused key is not worth another try").hasSize(1);
        assertThat(CALLS).as("no call opened without a token").isEmpty();

        assertThat(new ProviderChecks(http, apis).problem(revoked).await().atMost(java.time.Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Google Cloud Speech-to-Text: the"
                        + " service account " + email).contains("invalid_grant"));
        assertThat(CHECKS).isEmpty();
    }
}
