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
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
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
 * The providers that speak OpenAI's Realtime protocol with their differences (Azure OpenAI's GA v1 and preview APIs,
 * xAI's Grok Voice Agent API) and OpenAI's own on a browser call, against a local server that answers as they do
 * (session.updated, server VAD's speech_started/stopped, a response's audio deltas and transcript, response.done with a
 * function call and usage, the caller's transcription) and checks what is sent: the address and the key's header,
 * the session's shape for each dialect, the audio's format and rate in and out. And the refusals: a key refused at the
 * upgrade, an upgrade never answered, an Azure configuration without its endpoint; the key checks.
 */
class RealtimeDialectsTest {

    private static final String KEY = "rt-key";

    /** One session as the server saw it. */
    static final class Session {
        final String path;
        final MultiMap params;
        final MultiMap headers;
        final List<JsonObject> events = new CopyOnWriteArrayList<>();
        final ByteArrayOutputStream appended = new ByteArrayOutputStream();
        ServerWebSocket ws;

        Session(String path, MultiMap params, MultiMap headers) {
            this.path = path;
            this.params = params;
            this.headers = headers;
        }

        synchronized byte[] appended() {
            return appended.toByteArray();
        }

        List<String> types() {
            return events.stream().map(e -> e.getString("type")).toList();
        }
    }

    private static final List<Session> SESSIONS = new CopyOnWriteArrayList<>();
    private static final List<HttpServerRequest> CHECKS = new CopyOnWriteArrayList<>();
    private static volatile boolean hang;
    /** The model's reply audio, as the provider sends it (base64 in response.output_audio.delta). */
    private static volatile byte[] reply = new byte[0];
    private static volatile String deltaEvent = "response.output_audio.delta";
    private static Vertx vertx;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static String base;
    private static RealtimeModels realtime;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(RealtimeDialectsTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("grok_realtime",
                base + "/xai/v1");
        realtime = new RealtimeModels(http, apis, Duration.ofMillis(600));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        SESSIONS.clear();
        CHECKS.clear();
        hang = false;
        deltaEvent = "response.output_audio.delta";
    }

    private static void request(HttpServerRequest request) {
        if (!"websocket".equalsIgnoreCase(request.getHeader("Upgrade"))) {
            CHECKS.add(request);
            boolean known = KEY.equals(request.getHeader("api-key"))
                    || ("Bearer " + KEY).equals(request.getHeader("Authorization"));
            request.response().setStatusCode(known ? 200 : 401).putHeader("Content-Type", "application/json")
                    .end(known ? "{\"data\":[]}" : "{\"error\":{\"message\":\"Incorrect API key provided\"}}");
            return;
        }
        if (hang) {
            request.pause();
            return;
        }
        String given = request.getHeader("api-key") != null ? request.getHeader("api-key")
                : String.valueOf(request.getHeader("Authorization")).replace("Bearer ", "");
        if (!KEY.equals(given)) {
            request.response().setStatusCode(401).end("{\"error\":{\"message\":\"Incorrect API key provided\"}}");
            return;
        }
        Session session = new Session(request.path(), MultiMap.caseInsensitiveMultiMap().addAll(request.params()),
                MultiMap.caseInsensitiveMultiMap().addAll(request.headers()));
        request.toWebSocket().onSuccess(ws -> {
            session.ws = ws;
            SESSIONS.add(session);
            ws.writeTextMessage(new JsonObject().put("type", "session.created").encode());
            ws.textMessageHandler(text -> event(session, new JsonObject(text)));
        });
    }

    /** What the provider does with a client event: keeps it, and answers as the API would. */
    private static void event(Session session, JsonObject event) {
        String type = event.getString("type");
        if ("input_audio_buffer.append".equals(type)) {
            synchronized (session) {
                session.appended.writeBytes(Base64.getDecoder().decode(event.getString("audio")));
            }
            return; // appends are many: not kept as events
        }
        session.events.add(event);
        ServerWebSocket ws = session.ws;
        switch (type) {
            case "session.update" -> ws.writeTextMessage(new JsonObject().put("type", "session.updated").encode());
            case "response.create" -> {
                ws.writeTextMessage(new JsonObject().put("type", "input_audio_buffer.speech_started").encode());
                ws.writeTextMessage(new JsonObject().put("type", "input_audio_buffer.speech_stopped")
                        .put("item_id", "item_caller").encode());
                ws.writeTextMessage(new JsonObject().put("type", "response.created")
                        .put("response", new JsonObject().put("id", "resp_1")).encode());
                for (int at = 0; at < reply.length; at += 4_800) {
                    byte[] part = Arrays.copyOfRange(reply, at, Math.min(reply.length, at + 4_800));
                    ws.writeTextMessage(new JsonObject().put("type", deltaEvent).put("response_id", "resp_1")
                            .put("item_id", "item_agent").put("delta", Base64.getEncoder().encodeToString(part))
                            .encode());
                }
                ws.writeTextMessage(new JsonObject().put("type", "response.output_audio_transcript.delta")
                        .put("response_id", "resp_1").put("delta", "Your order ships today.").encode());
                ws.writeTextMessage(new JsonObject().put("type", "response.done").put("response", new JsonObject()
                        .put("id", "resp_1").put("status", "completed")
                        .put("output", new JsonArray()
                                .add(new JsonObject().put("type", "message").put("content", new JsonArray()
                                        .add(new JsonObject().put("type", "output_audio")
                                                .put("transcript", "Your order ships today."))))
                                .add(new JsonObject().put("type", "function_call").put("call_id", "call_1")
                                        .put("name", "track_order").put("arguments", "{\"order\":\"42\"}")))
                        .put("usage", new JsonObject().put("input_tokens", 40).put("output_tokens", 20)
                                .put("total_tokens", 60))).encode());
                ws.writeTextMessage(new JsonObject().put("type",
                        "conversation.item.input_audio_transcription.completed").put("item_id", "item_caller")
                        .put("transcript", "where is my order").encode());
            }
            default -> {
            }
        }
    }

    /** What the model did, as the session would be told. */
    static final class Heard implements SpeechToSpeech.Listener {
        final List<String> events = new CopyOnWriteArrayList<>();
        final ByteArrayOutputStream audio = new ByteArrayOutputStream();
        volatile SpeechToSpeech.Response done;

        @Override
        public void speechStarted() {
            events.add("speech_started");
        }

        @Override
        public void speechStopped(String itemId) {
            events.add("speech_stopped:" + itemId);
        }

        @Override
        public void heard(String itemId, String transcript) {
            events.add("heard:" + transcript);
        }

        @Override
        public void responseStarted(String responseId) {
            events.add("response:" + responseId);
        }

        @Override
        public synchronized void audio(String responseId, String itemId, byte[] bytes) {
            audio.writeBytes(bytes);
        }

        @Override
        public void transcript(String responseId, String delta) {
            events.add("transcript:" + delta);
        }

        @Override
        public void responseDone(SpeechToSpeech.Response response) {
            done = response;
            events.add("done:" + response.status());
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
    }

    private static ModelEndpoint endpoint(String provider, String model, Map<String, Object> settings, String key) {
        return new ModelEndpoint(ModelService.REALTIME, provider, model, null, List.of(key), settings, false);
    }

    private static ModelEndpoint azure(String version, String key) {
        Map<String, Object> settings = new HashMap<>(Map.of("endpoint", base + "/", "voice", "coral"));
        if (version != null) {
            settings.put("api_version", version);
        }
        return endpoint("azure_realtime", "my-realtime", settings, key);
    }

    private static final SpeechToSpeech.Setup SETUP = new SpeechToSpeech.Setup("Help with orders.",
            List.of(new FunctionSpec("track_order", "Tracks an order", FunctionSpec.objectSchema(Map.of("order",
                    Map.of("type", "string"))), FunctionSpec.Kind.TOOL)), false);

    /** Opens a stream, configures its node, streams {@code frames} 20 ms frames and asks for a response. */
    private static Heard converse(ModelEndpoint endpoint, AudioFormat format, int frames)
            throws InterruptedException {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = realtime.open(endpoint, format, heard);
        stream.configure(SETUP);
        for (int i = 0; i < frames; i++) {
            stream.audio(new byte[format.bytes(20)]);
        }
        await(() -> !SESSIONS.isEmpty() && SESSIONS.getFirst().appended().length > 0, "audio appended");
        stream.respond(null);
        await(() -> heard.done != null && heard.events.stream().anyMatch(e -> e.startsWith("heard:")),
                "the response and the caller's transcript");
        stream.close();
        return heard;
    }

    @Test
    void azureGaIsOpenAisProtocolAtTheResourceWithTheDeploymentAndTheKeyAsApiKey() throws Exception {
        byte[] mulaw = new byte[8_000]; // one second of the model's μ-law
        Arrays.fill(mulaw, (byte) 0x55);
        reply = mulaw;
        Heard heard = converse(azure(null, KEY), AudioFormat.MULAW_8K, 10);

        Session session = SESSIONS.getFirst();
        assertThat(session.path).isEqualTo("/openai/v1/realtime");
        assertThat(session.params.get("model")).isEqualTo("my-realtime");
        assertThat(session.params.get("api-version")).as("the GA API has no date version").isNull();
        assertThat(session.headers.get("api-key")).isEqualTo(KEY);
        assertThat(session.headers.get("Authorization")).isNull();
        JsonObject update = session.events.getFirst().getJsonObject("session");
        assertThat(session.events.getFirst().getString("type")).isEqualTo("session.update");
        assertThat(update.getString("type")).isEqualTo("realtime");
        assertThat(update.getString("instructions")).isEqualTo("Help with orders.");
        assertThat(update.getJsonArray("tools").getJsonObject(0).getString("name")).isEqualTo("track_order");
        JsonObject input = update.getJsonObject("audio").getJsonObject("input");
        assertThat(input.getJsonObject("format").getString("type")).isEqualTo("audio/pcmu");
        assertThat(input.getJsonObject("transcription").getString("model")).isEqualTo("whisper-1");
        assertThat(input.getJsonObject("turn_detection").getBoolean("interrupt_response"))
                .as("the node does not allow interruptions").isFalse();
        assertThat(update.getJsonObject("audio").getJsonObject("output").getString("voice")).isEqualTo("coral");
        assertThat(session.appended()).as("the phone's μ-law as it is").hasSize(10 * 160);
        assertThat(heard.audio()).isEqualTo(mulaw);
        assertThat(heard.events).containsSubsequence("speech_started", "speech_stopped:item_caller",
                "response:resp_1", "transcript:Your order ships today.", "done:completed",
                "heard:where is my order");
        assertThat(heard.done.text()).isEqualTo("Your order ships today.");
        assertThat(heard.done.calls()).singleElement().satisfies(call -> assertThat(call.name())
                .isEqualTo("track_order"));
        assertThat(heard.done.usage().totalTokens()).isEqualTo(60);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:") || e.startsWith("warning:"));
    }

    @Test
    void azurePreviewVersionsSpeakTheBetaSessionShapeAndItsAudioEvents() throws Exception {
        reply = new byte[1_600];
        deltaEvent = "response.audio.delta";
        Heard heard = converse(azure("2024-10-01-preview", KEY), AudioFormat.MULAW_8K, 5);

        Session session = SESSIONS.getFirst();
        assertThat(session.path).isEqualTo("/openai/realtime");
        assertThat(session.params.get("api-version")).isEqualTo("2024-10-01-preview");
        assertThat(session.params.get("deployment")).isEqualTo("my-realtime");
        JsonObject update = session.events.getFirst().getJsonObject("session");
        assertThat(update.getString("type")).as("the beta session has no type").isNull();
        assertThat(update.getString("input_audio_format")).isEqualTo("g711_ulaw");
        assertThat(update.getString("output_audio_format")).isEqualTo("g711_ulaw");
        assertThat(update.getString("voice")).isEqualTo("coral");
        assertThat(update.getJsonObject("turn_detection").getString("type")).isEqualTo("server_vad");
        assertThat(heard.audio()).hasSize(1_600);
    }

    @Test
    void grokOnABrowserCallTakesPcmAtTheCallsRateWithItsOwnSessionShape() throws Exception {
        reply = Pcm16.bytes(tone(16_000, 0.2));
        Heard heard = converse(endpoint("grok_realtime", "grok-voice-think-fast-1.0",
                Map.of("voice", "eve", "language", "en"), KEY), AudioFormat.PCM_16K, 10);

        Session session = SESSIONS.getFirst();
        assertThat(session.path).isEqualTo("/xai/v1/realtime");
        assertThat(session.params.get("model")).isEqualTo("grok-voice-think-fast-1.0");
        assertThat(session.headers.get("Authorization")).isEqualTo("Bearer " + KEY);
        JsonObject update = session.events.getFirst().getJsonObject("session");
        assertThat(update.getString("voice")).as("Grok's voice is at the session's top").isEqualTo("eve");
        assertThat(update.getString("type")).isNull();
        assertThat(update.getJsonObject("turn_detection").getString("type")).isEqualTo("server_vad");
        assertThat(update.getJsonObject("turn_detection").containsKey("create_response"))
                .as("Grok's VAD has no response controls").isFalse();
        JsonObject format = update.getJsonObject("audio").getJsonObject("input").getJsonObject("format");
        assertThat(format.getString("type")).isEqualTo("audio/pcm");
        assertThat(format.getInteger("rate")).isEqualTo(16_000);
        assertThat(update.getJsonObject("audio").getJsonObject("input").getJsonObject("transcription")
                .getString("language_hint")).isEqualTo("en");
        assertThat(session.appended()).as("16 kHz PCM as it is").hasSize(10 * 640);
        assertThat(heard.audio()).isEqualTo(reply);
    }

    @Test
    void openAiOnABrowserCallIsResampledTo24KhzAndItsAnswerBackTo16() throws Exception {
        reply = Pcm16.bytes(tone(24_000, 0.5));
        Heard heard = converse(endpoint("openai_realtime", "gpt-realtime-2", Map.of(), KEY),
                AudioFormat.PCM_16K, 50); // one second of the caller

        JsonObject update = SESSIONS.getFirst().events.getFirst().getJsonObject("session");
        JsonObject format = update.getJsonObject("audio").getJsonObject("input").getJsonObject("format");
        assertThat(format.getString("type")).isEqualTo("audio/pcm");
        assertThat(format.getInteger("rate")).isEqualTo(24_000);
        assertThat(update.getJsonObject("audio").getJsonObject("output").getJsonObject("format")
                .getInteger("rate")).isEqualTo(24_000);
        // a second at 24 kHz, less the resampler's few milliseconds of delay
        assertThat(SESSIONS.getFirst().appended().length).isBetween(46_000, 48_000);
        short[] heardSamples = Pcm16.samples(heard.audio());
        assertThat(heardSamples.length).as("half a second at 16 kHz").isBetween(7_700, 8_000);
        assertThat(frequency(heardSamples, 16_000)).as("the 440 Hz tone survives the resampling")
                .isBetween(420.0, 460.0);
    }

    @Test
    void aRefusedKeyAnUnansweredUpgradeAndAnAzureWithoutEndpointFailWithTheirReasons() throws Exception {
        Heard refused = new Heard();
        realtime.open(endpoint("grok_realtime", null, Map.of(), "wrong"), AudioFormat.MULAW_8K, refused);
        await(() -> !refused.events.isEmpty(), "the refusal");
        assertThat(refused.events).singleElement().asString().startsWith("failed:Grok Realtime: Could not reach")
                .contains("401");

        hang = true;
        Heard unanswered = new Heard();
        realtime.open(azure(null, KEY), AudioFormat.MULAW_8K, unanswered);
        await(() -> !unanswered.events.isEmpty(), "the time-out");
        assertThat(unanswered.events).singleElement().asString()
                .startsWith("failed:Azure OpenAI Realtime: Could not reach 127.0.0.1");

        assertThatThrownBy(() -> realtime.open(endpoint("azure_realtime", "d", Map.of(), KEY),
                AudioFormat.MULAW_8K, new Heard())).isInstanceOf(UnsupportedSpeechProvider.class)
                .hasMessageContaining("needs the endpoint");
    }

    @Test
    void theKeysAreCheckedWithTheProvidersModelLists() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(azure(null, KEY)).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(checks.problem(endpoint("grok_realtime", null, Map.of(), KEY)).await()
                .atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(CHECKS).extracting(HttpServerRequest::path).containsExactly("/openai/v1/models",
                "/xai/v1/models");
        assertThat(checks.problem(azure(null, "wrong")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Azure OpenAI API key")
                        .contains("401", "Incorrect API key provided"));
    }

    private static short[] tone(int rate, double seconds) {
        short[] samples = new short[(int) (rate * seconds)];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = (short) (8_000 * Math.sin(2 * Math.PI * 440 * i / rate));
        }
        return samples;
    }

    /** A tone's frequency from its rising zero crossings, away from the edges. */
    private static double frequency(short[] samples, int rate) {
        int from = samples.length / 10;
        int to = samples.length - from;
        int crossings = 0;
        for (int i = from + 1; i < to; i++) {
            if (samples[i - 1] < 0 && samples[i] >= 0) {
                crossings++;
            }
        }
        return crossings * (double) rate / (to - from);
    }
}
