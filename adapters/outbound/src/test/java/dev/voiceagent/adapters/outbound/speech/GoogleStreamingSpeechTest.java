package dev.voiceagent.adapters.outbound.speech;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.cloud.texttospeech.v1.AudioEncoding;
import com.google.cloud.texttospeech.v1.StreamingSynthesizeConfig;
import com.google.cloud.texttospeech.v1.StreamingSynthesizeRequest;
import com.google.cloud.texttospeech.v1.StreamingSynthesizeResponse;
import com.google.protobuf.ByteString;
import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.TextToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import io.vertx.grpc.common.GrpcMessageDecoder;
import io.vertx.grpc.common.GrpcMessageEncoder;
import io.vertx.grpc.common.GrpcStatus;
import io.vertx.grpc.common.ServiceMethod;
import io.vertx.grpc.common.ServiceName;
import io.vertx.grpc.server.GrpcServer;
import io.vertx.grpc.server.GrpcServerRequest;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Google Cloud Text-to-Speech's streaming synthesis as a call speaks with a Chirp 3 HD voice, against a local gRPC
 * server (cleartext HTTP/2) that implements {@code google.cloud.texttospeech.v1.TextToSpeech/StreamingSynthesize} as
 * Google does: the metadata checked (the key as {@code x-goog-api-key}, or a service account's token as
 * {@code authorization: Bearer}), the configuration first (voice, language, encoding, rate, speaking rate), then the
 * text, then the half-close; the sentence's audio answered in chunks, in order, and the call ended with OK. The phone's
 * MULAW and a browser's PCM (a WAV header Google might send taken off); a refusal ({@code UNAUTHENTICATED}: failed
 * with Google's words, one call); a server that never answers (timed out, tried again within the budget, then
 * failed); a call reset after some audio (restarted, spoken again, counted once); a sentence cancelled mid-way (its
 * call cancelled, the next sentence spoken); a voice Google does not stream still synthesized by REST.
 */
class GoogleStreamingSpeechTest {

    private static final String KEY = "AIza-streaming";
    private static final String TOKEN = "ya29-streaming";
    private static final ServiceMethod<StreamingSynthesizeRequest, StreamingSynthesizeResponse> SERVED =
            ServiceMethod.server(ServiceName.create("google.cloud.texttospeech.v1.TextToSpeech"),
                    "StreamingSynthesize", GrpcMessageEncoder.encoder(),
                    GrpcMessageDecoder.decoder(StreamingSynthesizeRequest.parser()));
    private static final int CHUNK = 16;

    /** What the server does with the next call. */
    enum Behaviour {
        /** Speaks the sentence, as Google does. */
        ANSWER,
        /** Speaks it with a WAV header before the audio. */
        WAV,
        /** Takes the call and its requests, and never answers. */
        HANG,
        /** Sends the first chunk of audio, then resets the call. */
        RESET,
        /** Sends the first chunk of audio, then nothing more. */
        TRICKLE
    }

    /** One call as the server saw it. */
    static final class Call {
        final String key;
        final String authorization;
        final Behaviour behaviour;
        /** "config", "text" and "half-close", in order. */
        final List<String> received = new CopyOnWriteArrayList<>();
        volatile StreamingSynthesizeConfig config;
        volatile String text;
        volatile boolean cancelled;

        Call(GrpcServerRequest<StreamingSynthesizeRequest, StreamingSynthesizeResponse> request, Behaviour behaviour) {
            this.key = request.headers().get("x-goog-api-key");
            this.authorization = request.headers().get("authorization");
            this.behaviour = behaviour;
        }
    }

    private static final Deque<Behaviour> BEHAVIOURS = new ConcurrentLinkedDeque<>();
    private static final List<Call> CALLS = new CopyOnWriteArrayList<>();
    private static final List<JsonObject> REST = new CopyOnWriteArrayList<>();
    private static Vertx vertx;
    private static SpeechProviders speech;
    private static String accountJson;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        GrpcServer grpc = GrpcServer.server(vertx).callHandler(SERVED, GoogleStreamingSpeechTest::call);
        HttpServer server = vertx.createHttpServer().requestHandler(request -> {
            if (request.path().equals("/token")) {
                request.body().onSuccess(body -> request.response().putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("access_token", TOKEN).put("expires_in", 3_599)
                                .put("token_type", "Bearer").encode()));
            } else if (request.path().equals("/v1/text:synthesize")) {
                request.body().onSuccess(body -> synthesize(request, body.toJsonObject()));
            } else {
                grpc.handle(request);
            }
        });
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        String base = "http://127.0.0.1:" + server.actualPort();
        GuardedHttp http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(600));
        ProviderApis apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v")
                .pointing("google_tts", base).pointing("google_oauth", base);
        speech = new SpeechProviders(http, apis, vertx, Duration.ofMillis(600), 3, Duration.ofMillis(100),
                Duration.ofSeconds(1));
        KeyPairGenerator rsa = KeyPairGenerator.getInstance("RSA");
        rsa.initialize(2048);
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'})
                .encodeToString(rsa.generateKeyPair().getPrivate().getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        accountJson = new JsonObject().put("type", "service_account").put("project_id", "voice-agent")
                .put("private_key_id", "kid-1").put("private_key", pem)
                .put("client_email", "speaker@voice-agent.iam.gserviceaccount.com")
                .put("token_uri", "https://oauth2.googleapis.com/token").encode();
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        BEHAVIOURS.clear();
        CALLS.clear();
        REST.clear();
    }

    /** The audio the server makes of a text: its bytes four times over (an oracle of what was spoken). */
    private static byte[] audio(String text) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int i = 0; i < 4; i++) {
            out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }

    /** StreamingSynthesize: the metadata checked at once (a trailers-only refusal), the config first, then the text. */
    private static void call(GrpcServerRequest<StreamingSynthesizeRequest, StreamingSynthesizeResponse> request) {
        Behaviour behaviour = BEHAVIOURS.isEmpty() ? Behaviour.ANSWER : BEHAVIOURS.pollFirst();
        Call call = new Call(request, behaviour);
        CALLS.add(call);
        if (!KEY.equals(call.key) && !("Bearer " + TOKEN).equals(call.authorization)) {
            request.response().status(GrpcStatus.UNAUTHENTICATED).statusMessage("Request had invalid authentication"
                    + " credentials. Expected OAuth 2 access token, login cookie or other valid authentication"
                    + " credential.").end();
            return;
        }
        request.errorHandler(error -> call.cancelled = true);
        request.response().exceptionHandler(error -> call.cancelled = true);
        request.handler(message -> {
            if (message.hasStreamingConfig()) {
                call.received.add("config");
                call.config = message.getStreamingConfig();
            } else {
                call.received.add("text");
                call.text = message.getInput().getText();
            }
        });
        request.endHandler(v -> {
            call.received.add("half-close");
            if (behaviour == Behaviour.HANG) {
                return;
            }
            if (!List.of("config", "text", "half-close").equals(call.received)) {
                request.response().status(GrpcStatus.INVALID_ARGUMENT).statusMessage("The first request must carry"
                        + " the streaming config, then the input.").end();
                return;
            }
            byte[] audio = audio(call.text);
            if (behaviour == Behaviour.WAV) {
                audio = wav(audio, call.config.getStreamingAudioConfig().getSampleRateHertz());
            }
            for (int at = 0; at < audio.length; at += CHUNK) {
                request.response().write(StreamingSynthesizeResponse.newBuilder().setAudioContent(ByteString.copyFrom(
                        Arrays.copyOfRange(audio, at, Math.min(audio.length, at + CHUNK)))).build());
                if (behaviour == Behaviour.RESET) { // once the chunk is on its way
                    vertx.setTimer(100, t -> request.response().cancel());
                    return;
                }
                if (behaviour == Behaviour.TRICKLE) { // the same chunk again now and then, until the call is reset
                    byte[] first = Arrays.copyOf(audio, CHUNK);
                    vertx.setPeriodic(50, timer -> {
                        if (call.cancelled) {
                            vertx.cancelTimer(timer);
                        } else {
                            request.response().write(StreamingSynthesizeResponse.newBuilder()
                                    .setAudioContent(ByteString.copyFrom(first)).build());
                        }
                    });
                    return;
                }
            }
            request.response().end();
        });
    }

    /** A 16-bit mono WAV header of a streamed file (its sizes unknown) before the audio. */
    private static byte[] wav(byte[] data, int rate) {
        ByteBuffer header = ByteBuffer.allocate(44 + data.length).order(ByteOrder.LITTLE_ENDIAN);
        header.put("RIFF".getBytes(StandardCharsets.US_ASCII)).putInt(-1).put("WAVE".getBytes(StandardCharsets.US_ASCII))
                .put("fmt ".getBytes(StandardCharsets.US_ASCII)).putInt(16).putShort((short) 1).putShort((short) 1)
                .putInt(rate).putInt(rate * 2).putShort((short) 2).putShort((short) 16)
                .put("data".getBytes(StandardCharsets.US_ASCII)).putInt(-1).put(data);
        return header.array();
    }

    /** REST text:synthesize for a voice Google does not stream: the audio as it is, in audioContent. */
    private static void synthesize(HttpServerRequest request, JsonObject body) {
        REST.add(body.put("key", request.getHeader("x-goog-api-key")));
        request.response().putHeader("Content-Type", "application/json").end(new JsonObject().put("audioContent",
                Base64.getEncoder().encodeToString(audio(body.getJsonObject("input").getString("text")))).encode());
    }

    private static ModelEndpoint google(String key, Map<String, Object> settings) {
        return new ModelEndpoint(ModelService.TTS, "google", "chirp_3_hd", null, key == null ? List.of()
                : List.of(key), settings, false);
    }

    private static final Map<String, Object> CHIRP = Map.of("voice", "en-GB-Chirp3-HD-Aoede", "language", "en-GB",
            "speed", 1.1);

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("in time").isLessThan(deadline);
            Thread.sleep(10);
        }
    }

    @Test
    void aPhoneCallsSentencesAreStreamedInMulawEachOnItsOwnCall() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(2);
        TextToSpeech.Stream stream = speech.open(google(KEY, CHIRP), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        stream.speak("u2", "How can I help you today?");
        heard.await();
        assertThat(heard.events).containsExactlyInAnyOrder("done:u1", "done:u2");
        assertThat(heard.audio.get("u1").toByteArray()).as("every chunk, in order").isEqualTo(audio("Hello there."));
        assertThat(heard.audio.get("u2").toByteArray()).isEqualTo(audio("How can I help you today?"));
        assertThat(CALLS).hasSize(2).allSatisfy(call -> {
            assertThat(call.key).isEqualTo(KEY);
            assertThat(call.authorization).isNull();
            assertThat(call.received).containsExactly("config", "text", "half-close");
            assertThat(call.config.getVoice().getName()).isEqualTo("en-GB-Chirp3-HD-Aoede");
            assertThat(call.config.getVoice().getLanguageCode()).isEqualTo("en-GB");
            assertThat(call.config.getStreamingAudioConfig().getAudioEncoding()).isEqualTo(AudioEncoding.MULAW);
            assertThat(call.config.getStreamingAudioConfig().getSampleRateHertz()).isEqualTo(8_000);
            assertThat(call.config.getStreamingAudioConfig().getSpeakingRate()).isEqualTo(1.1);
        });
        assertThat(CALLS).extracting(call -> call.text).containsExactlyInAnyOrder("Hello there.",
                "How can I help you today?");
        assertThat(REST).isEmpty();
        assertThat(stream.characters()).isEqualTo("Hello there.".length() + "How can I help you today?".length());
        stream.close();
    }

    @Test
    void aBrowserGetsPcmAt16kWithoutAWavHeaderAndAServiceAccountSignsInWithABearerToken() throws Exception {
        BEHAVIOURS.add(Behaviour.WAV);
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google(null, Map.of("credentials", accountJson)),
                AudioFormat.PCM_16K, heard);
        stream.speak("u1", "In a browser.");
        heard.await();
        assertThat(heard.events).containsExactly("done:u1");
        assertThat(heard.audio.get("u1").toByteArray()).isEqualTo(audio("In a browser."));
        assertThat(CALLS).singleElement().satisfies(call -> {
            assertThat(call.authorization).isEqualTo("Bearer " + TOKEN);
            assertThat(call.key).isNull();
            assertThat(call.config.getVoice().getName()).as("the catalog's default").isEqualTo("en-US-Chirp3-HD-Charon");
            assertThat(call.config.getStreamingAudioConfig().getAudioEncoding()).isEqualTo(AudioEncoding.PCM);
            assertThat(call.config.getStreamingAudioConfig().getSampleRateHertz()).isEqualTo(16_000);
            assertThat(call.config.getStreamingAudioConfig().getSpeakingRate()).as("none set").isZero();
        });
        stream.close();
    }

    @Test
    void aRefusalFailsTheStreamWithGooglesWordsAfterOneCall() throws Exception {
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google("bad-key", CHIRP), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        heard.await();
        assertThat(heard.events).singleElement().asString().startsWith("failed:Google Cloud: Request had invalid"
                + " authentication credentials.").contains("UNAUTHENTICATED");
        Thread.sleep(300); // no second try comes
        assertThat(CALLS).hasSize(1);
        assertThat(stream.characters()).isZero();
        stream.close();
    }

    @Test
    void aServerThatNeverAnswersIsTriedAgainWithinTheBudgetThenFails() throws Exception {
        for (int i = 0; i < 10; i++) {
            BEHAVIOURS.add(Behaviour.HANG);
        }
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google(KEY, CHIRP), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Hello there.");
        heard.await();
        assertThat(heard.events).singleElement().asString().startsWith("failed:Google Cloud: no answer within 600 ms");
        assertThat(CALLS.size()).as("tried again within the budget").isBetween(2, 4);
        assertThat(CALLS).allSatisfy(call -> assertThat(call.text).isEqualTo("Hello there."));
        assertThat(stream.characters()).isZero();
        stream.close();
    }

    @Test
    void aCallResetAfterSomeAudioIsRestartedSpokenAgainAndCountedOnce() throws Exception {
        BEHAVIOURS.add(Behaviour.RESET);
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google(KEY, CHIRP), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Spoken after a reset.");
        heard.await();
        assertThat(heard.events).containsExactly("restart:u1", "done:u1");
        assertThat(heard.audio.get("u1").toByteArray()).isEqualTo(audio("Spoken after a reset."));
        assertThat(CALLS).hasSize(2);
        assertThat(stream.characters()).isEqualTo("Spoken after a reset.".length());
        stream.close();
    }

    @Test
    void aCancelledSentencesCallIsCancelledAndTheNextIsSpoken() throws Exception {
        BEHAVIOURS.add(Behaviour.TRICKLE);
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google(KEY, CHIRP), AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "A long sentence cut by the caller.");
        await(() -> heard.audio.containsKey("u1"));
        stream.cancel("u1");
        int heardOfU1 = heard.audio.get("u1").size();
        await(() -> CALLS.getFirst().cancelled);
        stream.speak("u2", "The next one.");
        heard.await();
        assertThat(heard.events).containsExactly("done:u2");
        assertThat(heard.audio.get("u1").size()).as("nothing after the cancel").isEqualTo(heardOfU1);
        assertThat(heard.audio.get("u2").toByteArray()).isEqualTo(audio("The next one."));
        assertThat(stream.characters()).as("the cut sentence counts: some of it was heard")
                .isEqualTo("A long sentence cut by the caller.".length() + "The next one.".length());
        stream.close();
    }

    @Test
    void aVoiceGoogleDoesNotStreamIsSynthesizedByRest() throws Exception {
        assertThat(GoogleStreamingSpeech.streams("en-US-Chirp3-HD-Charon")).isTrue();
        assertThat(GoogleStreamingSpeech.streams("en-GB-Chirp-HD-D")).isTrue();
        assertThat(GoogleStreamingSpeech.streams("en-US-Neural2-F")).isFalse();
        SpeechRequestsTest.Heard heard = new SpeechRequestsTest.Heard(1);
        TextToSpeech.Stream stream = speech.open(google(KEY, Map.of("voice", "en-US-Neural2-F")),
                AudioFormat.MULAW_8K, heard);
        stream.speak("u1", "Not a Chirp voice.");
        heard.await();
        assertThat(heard.events).containsExactly("done:u1");
        assertThat(heard.audio.get("u1").toByteArray()).isEqualTo(audio("Not a Chirp voice."));
        assertThat(CALLS).isEmpty();
        assertThat(REST).singleElement().satisfies(body -> {
            assertThat(body.getString("key")).isEqualTo(KEY);
            assertThat(body.getJsonObject("voice").getString("name")).isEqualTo("en-US-Neural2-F");
        });
        stream.close();
    }
}
