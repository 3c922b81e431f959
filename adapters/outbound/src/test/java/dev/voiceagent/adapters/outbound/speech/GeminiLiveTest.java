package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.await;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.ProviderChecks;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.ToolCall;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Gemini Live on a call, against a local server that answers as Google's Live API does (its JSON in binary frames,
 * as Google sends it): the setup (the model, the voice and language, the temperature, the node's instructions and
 * functions, the audio transcribed both ways, Gemini's voice activity, session resumption), nothing sent before
 * setupComplete, the caller's μ-law sent as 16 kHz PCM, a model turn's 24 kHz audio resampled to the call's format,
 * the caller's turn and its transcription, a function call answered with a toolResponse, a barge-in, a greeting asked
 * for, a node's setup on a new connection seeded with the call's context; a browser's PCM both ways. And the faults:
 * an upgrade refused, a close 1008 after the setup, an upgrade or a setup never answered, a goAway and a drop resumed
 * with the session's handle, drops beyond the budget. Vertex AI: the service account's token (a signed JWT bearer
 * grant, kept for the next call), the project's model, a function call without an id; a refused account. The key
 * check.
 */
class GeminiLiveTest {

    private static final String KEY = "gm-key";
    private static final String TOKEN = "ya29.fake-token";
    private static final String NODE = "You are Ada, who answers about orders.";
    private static final FunctionSpec LOOKUP = new FunctionSpec("lookup_order", "Find an order by its number",
            FunctionSpec.objectSchema(Map.of("order", Map.of("type", "string"))), FunctionSpec.Kind.TOOL);

    /** One connection as the server saw it. */
    static final class Session {
        final String path;
        final MultiMap headers;
        final List<JsonObject> messages = new CopyOnWriteArrayList<>();
        final ByteArrayOutputStream audio = new ByteArrayOutputStream();
        final List<String> mimeTypes = new CopyOnWriteArrayList<>();
        ServerWebSocket ws;

        Session(String path, MultiMap headers) {
            this.path = path;
            this.headers = headers;
        }

        JsonObject setup() {
            return messages.getFirst().getJsonObject("setup");
        }

        /** The messages after the setup, each by its one key (realtimeInput audio as "audio"). */
        List<String> kinds() {
            return messages.stream().skip(1).map(m -> {
                String kind = m.fieldNames().iterator().next();
                JsonObject input = m.getJsonObject("realtimeInput");
                return input != null && input.containsKey("audio") ? "audio" : input != null ? "text" : kind;
            }).toList();
        }

        List<JsonObject> of(String kind) {
            return messages.stream().filter(m -> m.containsKey(kind)).map(m -> m.getJsonObject(kind)).toList();
        }

        synchronized short[] samples() {
            return Pcm16.samples(audio.toByteArray());
        }

        /** Google sends its messages as binary frames of JSON. */
        void send(JsonObject message) {
            ws.writeBinaryMessage(Buffer.buffer(message.encode()));
        }
    }

    private static final List<Session> SESSIONS = new CopyOnWriteArrayList<>();
    private static final List<JsonObject> TOKEN_REQUESTS = new CopyOnWriteArrayList<>();
    private static volatile boolean hang;
    private static volatile boolean silent;
    private static volatile int refuseWith;
    private static volatile boolean refuseToken;
    private static Vertx vertx;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static String base;
    private static RealtimeModels realtime;
    private static KeyPair keys;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(GeminiLiveTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(600));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("google_realtime", base)
                .pointing("google_vertex_realtime", base + "/vertex").pointing("google_oauth", base + "/oauth");
        realtime = new RealtimeModels(http, apis, Duration.ofMillis(600));
        realtime.live = new LiveModels(http, apis, vertx, Duration.ofMillis(600), 3, Duration.ofMillis(100),
                Duration.ofSeconds(2), Optional.empty());
        KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
        generator.initialize(2048);
        keys = generator.generateKeyPair();
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        SESSIONS.clear();
        TOKEN_REQUESTS.clear();
        hang = false;
        silent = false;
        refuseWith = 0;
        refuseToken = false;
    }

    private static void request(HttpServerRequest request) {
        if (request.path().equals("/v1beta/models")) {
            boolean known = KEY.equals(request.getHeader("x-goog-api-key"));
            request.response().setStatusCode(known ? 200 : 400).putHeader("Content-Type", "application/json")
                    .end(known ? "{\"models\":[]}" : "{\"error\":{\"code\":400,\"message\":\"API key not valid."
                            + " Please pass a valid API key.\",\"status\":\"INVALID_ARGUMENT\"}}");
            return;
        }
        if (request.path().equals("/oauth/token")) {
            request.body().onSuccess(body -> token(request, body.toString()));
            return;
        }
        if (hang) {
            request.pause(); // never answered: the client's time limit runs out
            return;
        }
        if (refuseWith > 0) {
            request.response().setStatusCode(refuseWith).end("{\"error\":{\"message\":\"Permission denied on"
                    + " the project\"}}");
            return;
        }
        Session session = new Session(request.path(), MultiMap.caseInsensitiveMultiMap().addAll(request.headers()));
        request.toWebSocket().onSuccess(ws -> {
            session.ws = ws;
            SESSIONS.add(session);
            ws.textMessageHandler(text -> {
                JsonObject message = new JsonObject(text);
                session.messages.add(message);
                JsonObject input = message.getJsonObject("realtimeInput");
                if (input != null && input.getJsonObject("audio") != null) {
                    session.mimeTypes.add(input.getJsonObject("audio").getString("mimeType"));
                    synchronized (session) {
                        session.audio.writeBytes(Base64.getDecoder().decode(input.getJsonObject("audio")
                                .getString("data")));
                    }
                }
                if (message.containsKey("setup")) {
                    if (KEY.equals(session.headers.get("x-goog-api-key")) || ("Bearer " + TOKEN).equals(
                            session.headers.get("Authorization"))) {
                        if (!silent) {
                            session.send(new JsonObject().put("setupComplete", new JsonObject()));
                        }
                    } else { // Google checks the key after the upgrade and closes with its words
                        ws.close((short) 1008, "API key not valid. Please pass a valid API key.");
                    }
                }
            });
        });
    }

    /** Google's token endpoint: a JWT bearer grant signed by the service account's key. */
    private static void token(HttpServerRequest request, String body) {
        Map<String, String> form = new HashMap<>();
        for (String pair : body.split("&")) {
            String[] kv = pair.split("=", 2);
            form.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
        }
        String[] jwt = form.get("assertion").split("\\.");
        JsonObject header = new JsonObject(new String(Base64.getUrlDecoder().decode(jwt[0]), StandardCharsets.UTF_8));
        JsonObject claims = new JsonObject(new String(Base64.getUrlDecoder().decode(jwt[1]), StandardCharsets.UTF_8));
        boolean signed;
        try {
            Signature verify = Signature.getInstance("SHA256withRSA");
            verify.initVerify(keys.getPublic());
            verify.update((jwt[0] + "." + jwt[1]).getBytes(StandardCharsets.US_ASCII));
            signed = verify.verify(Base64.getUrlDecoder().decode(jwt[2]));
        } catch (Exception e) {
            signed = false;
        }
        TOKEN_REQUESTS.add(new JsonObject().put("grant", form.get("grant_type")).put("header", header)
                .put("claims", claims).put("signed", signed)
                .put("contentType", request.getHeader("Content-Type")));
        if (refuseToken || !signed) {
            request.response().setStatusCode(400).putHeader("Content-Type", "application/json")
                    .end("{\"error\":\"invalid_grant\",\"error_description\":\"Invalid JWT Signature.\"}");
            return;
        }
        request.response().putHeader("Content-Type", "application/json")
                .end(new JsonObject().put("access_token", TOKEN).put("expires_in", 3599).put("token_type", "Bearer")
                        .encode());
    }

    /** What the model did, in order. */
    static final class Heard implements SpeechToSpeech.Listener {
        final List<String> events = new CopyOnWriteArrayList<>();
        final List<SpeechToSpeech.Response> responses = new CopyOnWriteArrayList<>();
        final ByteArrayOutputStream audio = new ByteArrayOutputStream();

        @Override
        public void speechStarted() {
            events.add("speechStarted");
        }

        @Override
        public void speechStopped(String itemId) {
            events.add("speechStopped:" + itemId);
        }

        @Override
        public void heard(String itemId, String transcript) {
            events.add("heard:" + itemId + ":" + transcript);
        }

        @Override
        public void responseStarted(String responseId) {
            events.add("responseStarted:" + responseId);
        }

        @Override
        public void audio(String responseId, String itemId, byte[] bytes) {
            if (events.isEmpty() || !events.getLast().equals("audio:" + responseId)) {
                events.add("audio:" + responseId);
            }
            synchronized (this) {
                audio.writeBytes(bytes);
            }
        }

        @Override
        public void transcript(String responseId, String delta) {
            events.add("transcript:" + responseId + ":" + delta);
        }

        @Override
        public void responseDone(SpeechToSpeech.Response response) {
            responses.add(response);
            events.add("done:" + response.id() + ":" + response.status());
        }

        @Override
        public void warning(String message) {
            events.add("warning:" + message);
        }

        @Override
        public void failed(String message) {
            events.add("failed:" + message);
        }

        synchronized byte[] audio() {
            return audio.toByteArray();
        }

        List<String> failures() {
            return events.stream().filter(e -> e.startsWith("failed:")).toList();
        }
    }

    private static ModelEndpoint gemini(String key, Map<String, Object> more) {
        Map<String, Object> settings = new HashMap<>(Map.of("provider", "google_realtime", "voice", "Puck",
                "language", "en"));
        settings.putAll(more);
        return new ModelEndpoint(ModelService.REALTIME, "google_realtime", null, null, List.of(key), settings, false);
    }

    private static SpeechToSpeech.Setup node(String instructions, boolean interruptible, FunctionSpec... functions) {
        return new SpeechToSpeech.Setup(instructions, List.of(functions), interruptible);
    }

    /** A tone at {@code hz}, {@code ms} long, at {@code rate}. */
    private static short[] tone(int hz, int ms, int rate) {
        short[] samples = new short[rate / 1_000 * ms];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = (short) (8_000 * Math.sin(2 * Math.PI * hz * i / rate));
        }
        return samples;
    }

    /** Sign changes per second: twice the frequency of a tone. */
    private static double crossingsPerSecond(short[] samples, int rate) {
        int crossings = 0;
        for (int i = 1; i < samples.length; i++) {
            if ((samples[i - 1] < 0) != (samples[i] < 0)) {
                crossings++;
            }
        }
        return crossings * (double) rate / samples.length;
    }

    private static JsonObject content(JsonObject serverContent) {
        return new JsonObject().put("serverContent", serverContent);
    }

    private static JsonObject modelAudio(short[] samples) {
        return content(new JsonObject().put("modelTurn", new JsonObject().put("parts", new JsonArray()
                .add(new JsonObject().put("inlineData", new JsonObject().put("mimeType", "audio/pcm;rate=24000")
                        .put("data", Base64.getEncoder().encodeToString(Pcm16.bytes(samples))))))));
    }

    private static JsonObject words(String field, String text) {
        return content(new JsonObject().put(field, new JsonObject().put("text", text)));
    }

    /** A call on the phone: the node set up, the connection ready. */
    private static SpeechToSpeech.Stream call(Heard heard, AudioFormat format, Map<String, Object> settings)
            throws InterruptedException {
        SpeechToSpeech.Stream stream = realtime.open(gemini(KEY, settings), format, heard);
        stream.configure(node(NODE, true, LOOKUP));
        await(() -> SESSIONS.size() == 1 && !SESSIONS.getFirst().messages.isEmpty(), "the setup");
        return stream;
    }

    @Test
    void theSetupAsksForTheNodeTheVoiceAndTranscriptionsAndNothingGoesBeforeSetupComplete() throws Exception {
        silent = true; // setupComplete is sent by the test
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.MULAW_8K, Map.of("temperature", 0.6));
        Session session = SESSIONS.getFirst();
        assertThat(session.path).isEqualTo(LiveModels.GEMINI_PATH);
        assertThat(session.headers.get("x-goog-api-key")).isEqualTo(KEY);
        JsonObject setup = session.setup();
        assertThat(setup.getString("model")).isEqualTo("models/gemini-3.1-flash-live-preview");
        JsonObject generation = setup.getJsonObject("generationConfig");
        assertThat(generation.getJsonArray("responseModalities")).containsExactly("AUDIO");
        assertThat(generation.getDouble("temperature")).isEqualTo(0.6);
        JsonObject speech = generation.getJsonObject("speechConfig");
        assertThat(speech.getJsonObject("voiceConfig").getJsonObject("prebuiltVoiceConfig").getString("voiceName"))
                .isEqualTo("Puck");
        assertThat(speech.getString("languageCode")).as("the catalog's ISO code as BCP-47").isEqualTo("en-US");
        assertThat(setup.getJsonObject("systemInstruction").getJsonArray("parts").getJsonObject(0).getString("text"))
                .isEqualTo(NODE);
        JsonObject declaration = setup.getJsonArray("tools").getJsonObject(0).getJsonArray("functionDeclarations")
                .getJsonObject(0);
        assertThat(declaration.getString("name")).isEqualTo("lookup_order");
        assertThat(declaration.getString("description")).isEqualTo("Find an order by its number");
        assertThat(declaration.getJsonObject("parametersJsonSchema").getJsonObject("properties")
                .getJsonObject("order").getString("type")).isEqualTo("string");
        assertThat(setup.getJsonObject("inputAudioTranscription")).isEmpty();
        assertThat(setup.getJsonObject("outputAudioTranscription")).isEmpty();
        assertThat(setup.getJsonObject("realtimeInputConfig").getJsonObject("automaticActivityDetection")
                .getBoolean("disabled")).isFalse();
        assertThat(setup.getJsonObject("realtimeInputConfig").getString("activityHandling"))
                .isEqualTo("START_OF_ACTIVITY_INTERRUPTS");
        assertThat(setup.getJsonObject("sessionResumption")).as("handles asked for, none given yet").isEmpty();
        assertThat(setup.containsKey("historyConfig")).as("nothing to seed").isFalse();

        byte[] mulaw = G711.encode(tone(1_000, 400, 8_000));
        for (int at = 0; at < mulaw.length; at += 160) {
            stream.audio(Arrays.copyOfRange(mulaw, at, at + 160));
        }
        stream.respond("Say exactly the following: \"Hello\"");
        Thread.sleep(150);
        assertThat(session.messages).as("nothing before setupComplete").hasSize(1);

        session.send(new JsonObject().put("setupComplete", new JsonObject()));
        await(() -> session.kinds().size() == 12, "the held request and audio");
        assertThat(session.kinds()).as("the greeting's turn, Gemini 3's nudge, then the held audio")
                .startsWith("clientContent", "text", "audio").containsOnlyOnce("clientContent");
        JsonObject greeting = session.of("clientContent").getFirst();
        assertThat(greeting.getBoolean("turnComplete")).isTrue();
        assertThat(greeting.getJsonArray("turns").getJsonObject(0).getString("role")).isEqualTo("user");
        assertThat(greeting.getJsonArray("turns").getJsonObject(0).getJsonArray("parts").getJsonObject(0)
                .getString("text")).isEqualTo("Say exactly the following: \"Hello\"");
        assertThat(session.mimeTypes).containsOnly("audio/pcm;rate=16000").hasSize(10);
        short[] sent = session.samples();
        assertThat(sent.length).as("400 ms at 16 kHz, less the resampler's few held back").isBetween(6_300, 6_400);
        assertThat(crossingsPerSecond(sent, 16_000)).as("the caller's 1 kHz tone").isBetween(1_950.0, 2_050.0);
        assertThat(stream.seconds()).isEqualTo(0.4);
        assertThat(heard.failures()).isEmpty();
        stream.close();
        await(session.ws::isClosed, "the connection closed");
    }

    @Test
    void aModelTurnIsAResponseInTheCallsFormatAndTheCallersTurnIsHeardOnceItsTranscriptionSettled()
            throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.MULAW_8K, Map.of());
        Session session = SESSIONS.getFirst();
        session.send(words("inputTranscription", "Where is"));
        await(() -> heard.events.contains("speechStarted"), "the caller's speech");
        session.send(modelAudio(tone(440, 100, 24_000)));
        JsonObject bundled = modelAudio(tone(440, 100, 24_000)).getJsonObject("serverContent") // Gemini 3 bundles
                .put("outputTranscription", new JsonObject().put("text", "Let me check."))
                .put("inputTranscription", new JsonObject().put("text", " my order?"));
        session.send(content(bundled));
        session.send(new JsonObject().put("serverContent", new JsonObject().put("turnComplete", true))
                .put("usageMetadata", new JsonObject().put("promptTokenCount", 120).put("responseTokenCount", 30)
                        .put("totalTokenCount", 150)));
        await(() -> heard.events.stream().anyMatch(e -> e.startsWith("heard:")), "the caller's words");

        assertThat(heard.events).containsExactly("speechStarted", "speechStopped:gemini-u1",
                "responseStarted:gemini-r1", "audio:gemini-r1", "transcript:gemini-r1:Let me check.",
                "audio:gemini-r1", "done:gemini-r1:completed", "heard:gemini-u1:Where is my order?");
        SpeechToSpeech.Response done = heard.responses.getFirst();
        assertThat(done.text()).isEqualTo("Let me check.");
        assertThat(done.calls()).isEmpty();
        assertThat(done.usage()).isEqualTo(new TokenUsage(120, 30, 150));
        short[] played = G711.decode(heard.audio());
        assertThat(played.length).as("200 ms of 24 kHz as 8 kHz μ-law").isEqualTo(1_600);
        assertThat(crossingsPerSecond(played, 8_000)).as("the model's 440 Hz").isBetween(840.0, 920.0);
        stream.close();
    }

    @Test
    void aFunctionCallEndsTheResponseAndItsResultGoesBackAsAToolResponse() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.MULAW_8K, Map.of());
        Session session = SESSIONS.getFirst();
        await(() -> session.messages.size() == 1 && session.ws != null, "setup");
        session.send(new JsonObject().put("toolCall", new JsonObject().put("functionCalls", new JsonArray()
                .add(new JsonObject().put("id", "fc-1").put("name", "lookup_order")
                        .put("args", new JsonObject().put("order", "A12"))))));
        await(() -> heard.responses.size() == 1, "the response with its call");
        assertThat(heard.responses.getFirst().calls()).containsExactly(new ToolCall("fc-1", "lookup_order",
                Map.of("order", "A12")));
        assertThat(heard.responses.getFirst().status()).isEqualTo("completed");

        stream.answer("fc-1", "{\"status\":\"shipped\"}");
        Thread.sleep(100);
        assertThat(session.of("toolResponse")).as("the result waits for the engine's request").isEmpty();
        stream.respond(null);
        await(() -> session.kinds().contains("text"), "the nudge after the result");
        assertThat(session.kinds()).containsExactly("toolResponse", "text");
        JsonObject response = session.of("toolResponse").getFirst().getJsonArray("functionResponses")
                .getJsonObject(0);
        assertThat(response.getString("id")).isEqualTo("fc-1");
        assertThat(response.getString("name")).isEqualTo("lookup_order");
        assertThat(response.getJsonObject("response")).isEqualTo(new JsonObject().put("status", "shipped"));
        assertThat(GeminiLive.output("done")).isEqualTo(new JsonObject().put("value", "done"));
        assertThat(GeminiLive.output("[1,2]")).isEqualTo(new JsonObject().put("value", new JsonArray().add(1).add(2)));

        session.send(words("outputTranscription", "It has shipped."));
        session.send(content(new JsonObject().put("turnComplete", true)));
        await(() -> heard.responses.size() == 2, "Gemini goes on in a new turn");
        assertThat(heard.responses.get(1).id()).isEqualTo("gemini-r2");
        assertThat(heard.responses.get(1).text()).isEqualTo("It has shipped.");
        stream.close();
    }

    @Test
    void aBargeInIsTheCallersSpeechAndCancelsTheResponseWhoseLateAudioIsDroppedAndWhatWasHeardIsKept()
            throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.MULAW_8K, Map.of());
        Session first = SESSIONS.getFirst();
        first.send(content(modelAudio(tone(440, 200, 24_000)).getJsonObject("serverContent")
                .put("outputTranscription", new JsonObject().put("text", "One two three four"))));
        await(() -> heard.events.contains("audio:gemini-r1"), "the answer's audio");
        int played = heard.audio().length;
        first.send(content(new JsonObject().put("interrupted", true)));
        first.send(modelAudio(tone(440, 100, 24_000)));
        first.send(content(new JsonObject().put("turnComplete", true)));
        await(() -> heard.responses.size() == 1, "the response's end");

        assertThat(heard.events).containsExactly("responseStarted:gemini-r1", "audio:gemini-r1",
                "transcript:gemini-r1:One two three four", "speechStarted", "done:gemini-r1:cancelled");
        assertThat(heard.audio()).as("nothing after the barge-in").hasSize(played);
        stream.truncate("gemini-r1", 100); // half of its audio heard: nothing to tell Gemini
        Thread.sleep(50);
        assertThat(first.kinds()).isEmpty();

        stream.configure(node("Another node.", true));
        await(() -> SESSIONS.size() == 2 && !SESSIONS.get(1).kinds().isEmpty(), "the seed");
        JsonObject seed = SESSIONS.get(1).of("clientContent").getFirst();
        assertThat(seed.getJsonArray("turns").getJsonObject(0).getJsonArray("parts").getJsonObject(0)
                .getString("text")).as("what the caller heard of it").isEqualTo("One two ...");
        stream.close();
    }

    @Test
    void aNodeThatDoesNotAllowInterruptionsSaysSo() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = realtime.open(gemini(KEY, Map.of()), AudioFormat.MULAW_8K, heard);
        stream.configure(node(NODE, false));
        await(() -> SESSIONS.size() == 1 && !SESSIONS.getFirst().messages.isEmpty(), "the setup");
        JsonObject setup = SESSIONS.getFirst().setup();
        assertThat(setup.getJsonObject("realtimeInputConfig").getString("activityHandling"))
                .isEqualTo("NO_INTERRUPTION");
        assertThat(setup.containsKey("tools")).isFalse();
        stream.close();
    }

    @Test
    void aNewNodeIsANewConnectionSeededWithTheCallsContextAndItsResultsAsText() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.MULAW_8K, Map.of());
        Session first = SESSIONS.getFirst();
        stream.said("Hello, this is Ada.");
        first.send(words("inputTranscription", "Where is my order?"));
        first.send(words("outputTranscription", "Let me look."));
        first.send(new JsonObject().put("toolCall", new JsonObject().put("functionCalls", new JsonArray()
                .add(new JsonObject().put("id", "fc-7").put("name", "lookup_order")
                        .put("args", new JsonObject().put("order", "A12"))))));
        await(() -> heard.responses.size() == 1, "the call");

        SpeechToSpeech.Setup shipping = node("You are Ada, now about shipping.", true);
        stream.configure(shipping); // the engine's ask: the new node, the result, the request
        stream.answer("fc-7", "{\"status\":\"shipped\"}");
        stream.respond("You are Ada, now about shipping.\n\nBegin your reply by saying exactly: \"Good news\"");
        await(() -> SESSIONS.size() == 2 && SESSIONS.get(1).kinds().size() == 3, "the new connection's seed");
        await(first.ws::isClosed, "the old connection closed");
        Session second = SESSIONS.get(1);
        JsonObject setup = second.setup();
        assertThat(setup.getJsonObject("systemInstruction").getJsonArray("parts").getJsonObject(0).getString("text"))
                .isEqualTo("You are Ada, now about shipping.");
        assertThat(setup.containsKey("tools")).isFalse();
        assertThat(setup.getJsonObject("historyConfig").getBoolean("initialHistoryInClientContent")).isTrue();
        assertThat(setup.getJsonObject("sessionResumption")).isEmpty();
        assertThat(second.kinds()).containsExactly("clientContent", "clientContent", "text");
        JsonObject seed = second.of("clientContent").getFirst();
        assertThat(seed.getBoolean("turnComplete")).as("the history ends, asking for nothing").isTrue();
        List<String> turns = seed.getJsonArray("turns").stream().map(t -> ((JsonObject) t).getString("role") + ": "
                + ((JsonObject) t).getJsonArray("parts").getJsonObject(0).getString("text")).toList();
        assertThat(turns).containsExactly("model: Hello, this is Ada.", "user: Where is my order?",
                "model: Let me look.", "model: [Called function lookup_order with args {\"order\":\"A12\"}]",
                "user: [Function lookup_order returned {\"status\":\"shipped\"}]");
        JsonObject ask = second.of("clientContent").get(1);
        assertThat(ask.getBoolean("turnComplete")).isTrue();
        assertThat(ask.getJsonArray("turns").getJsonObject(0).getJsonArray("parts").getJsonObject(0)
                .getString("text")).as("the node's instructions are not sent again")
                .isEqualTo("Begin your reply by saying exactly: \"Good news\"");
        assertThat(second.of("toolResponse")).as("the new connection never issued the call").isEmpty();
        assertThat(heard.failures()).isEmpty();
        stream.close();
    }

    @Test
    void aBrowsersPcmGoesAsItIsAndTheModelsAudioComesAt16Khz() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.PCM_16K, Map.of());
        Session session = SESSIONS.getFirst();
        byte[] pcm = Pcm16.bytes(tone(500, 40, 16_000));
        stream.audio(Arrays.copyOfRange(pcm, 0, 640));
        stream.audio(Arrays.copyOfRange(pcm, 640, 1_280));
        await(() -> session.samples().length == 640, "the audio");
        assertThat(Pcm16.bytes(session.samples())).isEqualTo(pcm);
        session.send(modelAudio(tone(440, 300, 24_000)));
        session.send(content(new JsonObject().put("turnComplete", true)));
        await(() -> heard.responses.size() == 1, "the response");
        short[] played = Pcm16.samples(heard.audio());
        assertThat(played.length).isEqualTo(4_800);
        assertThat(crossingsPerSecond(played, 16_000)).isBetween(850.0, 910.0);
        stream.close();
    }

    @Test
    void aGoAwayAndADropAreResumedWithTheSessionsHandleAndDropsBeyondTheBudgetFail() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.MULAW_8K, Map.of());
        Session first = SESSIONS.getFirst();
        first.send(new JsonObject().put("sessionResumptionUpdate", new JsonObject().put("newHandle", "handle-1")
                .put("resumable", true)));
        first.send(new JsonObject().put("goAway", new JsonObject().put("timeLeft", "10s")));
        await(() -> SESSIONS.size() == 2, "a new connection");
        Session second = SESSIONS.get(1);
        await(() -> !second.messages.isEmpty(), "its setup");
        assertThat(second.setup().getJsonObject("sessionResumption").getString("handle")).isEqualTo("handle-1");
        assertThat(second.setup().containsKey("historyConfig")).isFalse();
        await(first.ws::isClosed, "the old one closed");

        second.send(new JsonObject().put("sessionResumptionUpdate", new JsonObject().put("newHandle", "handle-2")
                .put("resumable", true)));
        second.send(new JsonObject().put("sessionResumptionUpdate", new JsonObject().put("resumable", false)));
        Thread.sleep(50);
        second.ws.close((short) 1011, "Internal error occurred.");
        await(() -> SESSIONS.size() == 3 && !SESSIONS.get(2).messages.isEmpty(), "resumed after the drop");
        Thread.sleep(100);
        assertThat(SESSIONS.get(2).setup().getJsonObject("sessionResumption").containsKey("handle"))
                .as("the last handle was not resumable: a seeded session").isFalse();
        assertThat(heard.failures()).isEmpty();

        SESSIONS.get(2).ws.close((short) 1011, "Internal error occurred.");
        await(() -> SESSIONS.size() == 4 && !SESSIONS.get(3).messages.isEmpty(), "tried again");
        Thread.sleep(100);
        SESSIONS.get(3).ws.close((short) 1011, "Internal error occurred.");
        await(() -> SESSIONS.size() == 5 && !SESSIONS.get(4).messages.isEmpty(), "tried a third time");
        Thread.sleep(100);
        SESSIONS.get(4).ws.close((short) 1011, "Internal error occurred.");
        await(() -> !heard.failures().isEmpty(), "the budget spent");
        assertThat(heard.failures()).containsExactly(
                "failed:Gemini Live closed the session (1011 Internal error occurred.)");
        Thread.sleep(200);
        assertThat(SESSIONS).hasSize(5);
        stream.close();
    }

    @Test
    void aGoAwayDuringAResponseWaitsForItsEnd() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.MULAW_8K, Map.of());
        Session first = SESSIONS.getFirst();
        first.send(modelAudio(tone(440, 100, 24_000)));
        first.send(new JsonObject().put("goAway", new JsonObject().put("timeLeft", "5s")));
        Thread.sleep(200);
        assertThat(SESSIONS).as("the answer under way is not cut").hasSize(1);
        first.send(content(new JsonObject().put("turnComplete", true))
                .put("sessionResumptionUpdate", new JsonObject().put("newHandle", "handle-9").put("resumable", true)));
        await(() -> SESSIONS.size() == 2 && !SESSIONS.get(1).messages.isEmpty(), "the new connection");
        assertThat(SESSIONS.get(1).setup().getJsonObject("sessionResumption").getString("handle"))
                .isEqualTo("handle-9");
        assertThat(heard.events).contains("done:gemini-r1:completed").noneMatch(e -> e.startsWith("failed"));
        stream.close();
    }

    @Test
    void aCloseWith1008AfterTheSetupFailsAtOnceWithGooglesWords() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = realtime.open(gemini("wrong-key", Map.of()), AudioFormat.MULAW_8K, heard);
        stream.configure(node(NODE, true));
        await(() -> !heard.failures().isEmpty(), "the refusal");
        Thread.sleep(200);
        assertThat(heard.failures()).containsExactly("failed:Gemini Live closed the session (1008 API key not valid."
                + " Please pass a valid API key.)");
        assertThat(SESSIONS).as("no second try").hasSize(1);
    }

    @Test
    void anUpgradeRefusedFailsAtOnceWithItsStatus() throws Exception {
        refuseWith = 403;
        Heard heard = new Heard();
        realtime.open(gemini(KEY, Map.of()), AudioFormat.MULAW_8K, heard).configure(node(NODE, true));
        await(() -> !heard.failures().isEmpty(), "the refusal");
        assertThat(heard.failures()).singleElement().asString().startsWith("failed:Gemini Live: Could not reach")
                .contains("403");
        Thread.sleep(200);
        assertThat(SESSIONS).as("no second try, no connection").isEmpty();
    }

    @Test
    void anUpgradeOrASetupNeverAnsweredFailsOnceTheBudgetIsSpent() throws Exception {
        hang = true;
        Heard heard = new Heard();
        long started = System.nanoTime();
        realtime.open(gemini(KEY, Map.of()), AudioFormat.MULAW_8K, heard).configure(node(NODE, true));
        await(() -> !heard.failures().isEmpty(), "the time-out");
        assertThat(heard.failures()).singleElement().asString().startsWith("failed:Gemini Live: Could not reach");
        assertThat((System.nanoTime() - started) / 1_000_000).as("three tries of 600 ms").isGreaterThan(1_500);

        hang = false;
        silent = true;
        Heard waiting = new Heard();
        realtime.open(gemini(KEY, Map.of()), AudioFormat.MULAW_8K, waiting).configure(node(NODE, true));
        await(() -> !waiting.failures().isEmpty(), "no setupComplete");
        assertThat(waiting.failures()).containsExactly("failed:Gemini Live: no setupComplete within 600 ms");
        assertThat(SESSIONS).as("three tries").hasSize(3);
    }

    private static ModelEndpoint vertex(Object credentials, String location) {
        Map<String, Object> settings = new HashMap<>(Map.of("provider", "google_vertex_realtime", "project_id",
                "proj-1", "location", location, "language", "de"));
        if (credentials != null) {
            settings.put("credentials", credentials);
        }
        return new ModelEndpoint(ModelService.REALTIME, "google_vertex_realtime", null, null, List.of(), settings,
                false);
    }

    private static String serviceAccount() {
        Base64.Encoder mime = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII));
        String pem = "-----BEGIN PRIVATE KEY-----\n" + mime.encodeToString(keys.getPrivate().getEncoded())
                + "\n-----END PRIVATE KEY-----\n";
        return new JsonObject().put("type", "service_account").put("project_id", "proj-1")
                .put("private_key_id", "key-1").put("private_key", pem)
                .put("client_email", "agent@proj-1.iam.gserviceaccount.com")
                .put("token_uri", "http://169.254.169.254/not-this-one").encode();
    }

    @Test
    void vertexTakesATokenOfTheServiceAccountKeepsItAndNamesTheProjectsModel() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = realtime.open(vertex(serviceAccount(), "global"), AudioFormat.MULAW_8K, heard);
        stream.configure(node(NODE, true, LOOKUP));
        await(() -> SESSIONS.size() == 1 && SESSIONS.getFirst().kinds().isEmpty()
                && !SESSIONS.getFirst().messages.isEmpty(), "the setup");
        Session session = SESSIONS.getFirst();
        assertThat(session.path).as("the installation's address in place of Google's host")
                .isEqualTo("/vertex" + LiveModels.VERTEX_PATH);
        assertThat(session.headers.get("Authorization")).isEqualTo("Bearer " + TOKEN);
        JsonObject setup = session.setup();
        assertThat(setup.getString("model")).isEqualTo("projects/proj-1/locations/global/publishers/google/models/"
                + "gemini-live-2.5-flash-native-audio");
        assertThat(setup.getJsonObject("generationConfig").getJsonObject("speechConfig").getJsonObject("voiceConfig")
                .getJsonObject("prebuiltVoiceConfig").getString("voiceName")).isEqualTo("Charon");
        assertThat(setup.getJsonObject("generationConfig").getJsonObject("speechConfig").getString("languageCode"))
                .isEqualTo("de-DE");
        JsonObject grant = TOKEN_REQUESTS.getFirst();
        assertThat(grant.getString("grant")).isEqualTo("urn:ietf:params:oauth:grant-type:jwt-bearer");
        assertThat(grant.getString("contentType")).isEqualTo("application/x-www-form-urlencoded");
        assertThat(grant.getBoolean("signed")).as("RS256 with the account's key").isTrue();
        assertThat(grant.getJsonObject("header").getString("kid")).isEqualTo("key-1");
        JsonObject claims = grant.getJsonObject("claims");
        assertThat(claims.getString("iss")).isEqualTo("agent@proj-1.iam.gserviceaccount.com");
        assertThat(claims.getString("scope")).isEqualTo("https://www.googleapis.com/auth/cloud-platform");
        assertThat(claims.getString("aud")).as("the installation's token endpoint, not the file's")
                .isEqualTo(base + "/oauth/token");
        assertThat(claims.getLong("exp") - claims.getLong("iat")).isEqualTo(3_600);

        session.send(new JsonObject().put("toolCall", new JsonObject().put("functionCalls", new JsonArray()
                .add(new JsonObject().put("name", "lookup_order").put("args", new JsonObject().put("order", "B7"))))));
        await(() -> heard.responses.size() == 1, "the call");
        String id = heard.responses.getFirst().calls().getFirst().id();
        stream.answer(id, "shipped");
        stream.respond(null);
        await(() -> session.kinds().size() == 1, "the result");
        assertThat(session.kinds()).as("no nudge for Gemini 2.5").containsExactly("toolResponse");
        JsonObject response = session.of("toolResponse").getFirst().getJsonArray("functionResponses")
                .getJsonObject(0);
        assertThat(response.containsKey("id")).as("Vertex gave no id: matched by name").isFalse();
        assertThat(response.getString("name")).isEqualTo("lookup_order");
        assertThat(response.getJsonObject("response")).isEqualTo(new JsonObject().put("value", "shipped"));

        Heard again = new Heard();
        realtime.open(vertex(serviceAccount(), "global"), AudioFormat.MULAW_8K, again).configure(node(NODE, true));
        await(() -> SESSIONS.size() == 2, "a second call");
        assertThat(TOKEN_REQUESTS).as("the token kept").hasSize(1);
        assertThat(new ProviderChecks(http, apis).problem(vertex(serviceAccount(), "global")).await()
                .atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(TOKEN_REQUESTS).as("the key check shares the calls' token").hasSize(1);
        stream.close();
        assertThat(heard.failures()).isEmpty();
    }

    @Test
    void vertexWithoutCredentialsUsesTheInstallationsDefaultCredentials() throws Exception {
        Path file = Files.createTempFile("adc", ".json");
        // a key of its own: the token of the configured one, which another test may have got, is shared by the process
        Files.writeString(file, serviceAccount().replace("key-1", "adc-key"));
        LiveModels installation = new LiveModels(http, apis, vertx, Duration.ofMillis(600), 3, Duration.ofMillis(100),
                Duration.ofSeconds(2), Optional.of(file.toString()));
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = installation.open(vertex(null, "global"), AudioFormat.MULAW_8K, heard);
        stream.configure(node(NODE, true));
        await(() -> SESSIONS.size() == 1 && !SESSIONS.getFirst().messages.isEmpty(), "the setup");
        assertThat(SESSIONS.getFirst().headers.get("Authorization")).isEqualTo("Bearer " + TOKEN);
        assertThat(TOKEN_REQUESTS.getFirst().getJsonObject("claims").getString("iss"))
                .isEqualTo("agent@proj-1.iam.gserviceaccount.com");
        stream.close();
        Files.delete(file);
    }

    @Test
    void vertexRefusalsAndHosts() throws Exception {
        refuseToken = true;
        Heard heard = new Heard();
        ModelEndpoint other = vertex(serviceAccount().replace("key-1", "key-2"), "global");
        realtime.open(other, AudioFormat.MULAW_8K, heard).configure(node(NODE, true));
        await(() -> !heard.failures().isEmpty(), "the refusal");
        Thread.sleep(100);
        assertThat(heard.failures()).singleElement().asString().startsWith("failed:Gemini Live on Vertex AI:")
                .contains("400", "Invalid JWT Signature.");
        assertThat(TOKEN_REQUESTS).as("not tried again").hasSize(1);
        assertThat(SESSIONS).isEmpty();

        Heard none = new Heard();
        realtime.open(vertex(null, "global"), AudioFormat.MULAW_8K, none).configure(node(NODE, true));
        await(() -> !none.failures().isEmpty(), "no credentials");
        assertThat(none.failures()).singleElement().asString().contains("no service account credentials",
                "GOOGLE_APPLICATION_CREDENTIALS");
        assertThatThrownBy(() -> realtime.open(vertex("{\"client_email\":\"a@b\"}", "global"), AudioFormat.MULAW_8K,
                heard)).isInstanceOf(UnsupportedSpeechProvider.class).hasMessageContaining("private_key");
        assertThatThrownBy(() -> realtime.open(vertex(serviceAccount(), "evil.example/x?"), AudioFormat.MULAW_8K,
                heard)).isInstanceOf(UnsupportedSpeechProvider.class).hasMessageContaining("location");
        assertThat(LiveModels.vertexHost("https://aiplatform.googleapis.com", "global"))
                .isEqualTo("https://aiplatform.googleapis.com");
        assertThat(LiveModels.vertexHost("https://aiplatform.googleapis.com", "us-central1"))
                .isEqualTo("https://us-central1-aiplatform.googleapis.com");
        assertThat(LiveModels.vertexHost("https://aiplatform.googleapis.com", "eu"))
                .isEqualTo("https://aiplatform.eu.rep.googleapis.com");
        assertThat(LiveModels.vertexModel("p", "us-east4", "gemini-live-2.5-flash-native-audio"))
                .isEqualTo("projects/p/locations/us-east4/publishers/google/models/gemini-live-2.5-flash-native-audio");
    }

    @Test
    void theKeyCheckListsTheModels() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        ModelEndpoint good = gemini(KEY, Map.of());
        assertThat(checks.problem(good).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(checks.problem(gemini("wrong-key", Map.of())).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).contains("Gemini Live", "400",
                        "API key not valid"));
    }
}
