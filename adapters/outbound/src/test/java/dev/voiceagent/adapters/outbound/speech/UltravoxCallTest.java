package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.await;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.ProviderChecks;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToSpeech;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.audio.G711;
import dev.voiceagent.domain.audio.Pcm16;
import dev.voiceagent.domain.conversation.FunctionSpec;
import dev.voiceagent.domain.conversation.TokenUsage;
import dev.voiceagent.domain.conversation.ToolCall;
import dev.voiceagent.domain.model.ModelService;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Ultravox Realtime on a call, against a local server that answers as Ultravox's API does: the call created when the
 * engine first asks for speech (the node's prompt and tools, the model and the voice, the socket's audio at the call's
 * rate, who speaks first: the agent for a response asked for, the caller after a recorded greeting), its joinUrl
 * joined (the caller's audio held meanwhile, as 16-bit PCM), the agent's turns as responses (audio, transcript,
 * function calls, the end at the state's change), the caller's turns, results sent when the engine asks for the next
 * response, a node's stage riding on a result, a barge-in. And the faults: a refused key, a creation never answered,
 * a 503 tried again, drops continued by new calls with the call's history and beyond the budget a failure; the key
 * check.
 */
class UltravoxCallTest {

    private static final String KEY = "uv-key";
    private static final String NODE = "You are Ada, who answers about orders.";
    private static final FunctionSpec LOOKUP = new FunctionSpec("lookup_order", "Find an order by its number",
            FunctionSpec.objectSchema(Map.of("order", Map.of("type", "string"))), FunctionSpec.Kind.TOOL);

    /** One joined call as the server saw it. */
    static final class Joined {
        final String callId;
        final List<JsonObject> data = new CopyOnWriteArrayList<>();
        final ByteArrayOutputStream audio = new ByteArrayOutputStream();
        ServerWebSocket ws;

        Joined(String callId) {
            this.callId = callId;
        }

        synchronized short[] samples() {
            return Pcm16.samples(audio.toByteArray());
        }

        List<String> types() {
            return data.stream().map(m -> m.getString("type")).toList();
        }

        void send(JsonObject message) {
            ws.writeTextMessage(message.encode());
        }

        void state(String state) {
            send(new JsonObject().put("type", "state").put("state", state));
        }
    }

    private static final List<JsonObject> CREATED = new CopyOnWriteArrayList<>();
    private static final List<String> PRIORS = new CopyOnWriteArrayList<>();
    private static final List<Joined> JOINED = new CopyOnWriteArrayList<>();
    private static final AtomicInteger UNAVAILABLE = new AtomicInteger();
    private static volatile boolean hang;
    private static Vertx vertx;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static String base;
    private static RealtimeModels realtime;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(UltravoxCallTest::request);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(600));
        apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v").pointing("ultravox_realtime", base);
        realtime = new RealtimeModels(http, apis, Duration.ofMillis(600));
        realtime.live = new LiveModels(http, apis, vertx, Duration.ofMillis(600), 3, Duration.ofMillis(100),
                Duration.ofSeconds(2), Optional.empty());
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        CREATED.clear();
        PRIORS.clear();
        JOINED.clear();
        UNAVAILABLE.set(0);
        hang = false;
    }

    private static void request(HttpServerRequest request) {
        boolean known = KEY.equals(request.getHeader("X-API-Key"));
        if (request.path().equals("/api/accounts/me")) {
            request.response().setStatusCode(known ? 200 : 403).putHeader("Content-Type", "application/json")
                    .end(known ? "{\"accountId\":\"a-1\",\"name\":\"Acme\"}" : "{\"detail\":\"Invalid API key\"}");
            return;
        }
        if (request.path().equals("/api/calls")) {
            if (hang) {
                return; // never answered: the client's time limit runs out
            }
            request.body().onSuccess(body -> {
                if (!known) {
                    request.response().setStatusCode(403).putHeader("Content-Type", "application/json")
                            .end("{\"detail\":\"Invalid API key\"}");
                    return;
                }
                if (UNAVAILABLE.getAndDecrement() > 0) {
                    request.response().setStatusCode(503).end("{\"detail\":\"Try again later\"}");
                    return;
                }
                CREATED.add(body.toJsonObject());
                PRIORS.add(String.valueOf(request.getParam("priorCallId")));
                String callId = "call-" + CREATED.size();
                request.response().setStatusCode(201).putHeader("Content-Type", "application/json")
                        .end(new JsonObject().put("callId", callId).put("joinUrl", base.replace("http://", "ws://")
                                + "/calls/" + callId + "/server_web_socket").encode());
            });
            return;
        }
        if (request.path().startsWith("/calls/")) {
            Joined joined = new Joined(request.path().split("/")[2]);
            request.toWebSocket().onSuccess(ws -> {
                joined.ws = ws;
                ws.textMessageHandler(text -> joined.data.add(new JsonObject(text)));
                ws.binaryMessageHandler(audio -> {
                    synchronized (joined) {
                        joined.audio.writeBytes(audio.getBytes());
                    }
                });
                JOINED.add(joined);
                joined.send(new JsonObject().put("type", "call_started").put("callId", joined.callId));
                joined.state("listening");
            });
            return;
        }
        request.response().setStatusCode(404).end();
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

    private static ModelEndpoint ultravox(String key) {
        return new ModelEndpoint(ModelService.REALTIME, "ultravox_realtime", null, null, List.of(key),
                Map.of("provider", "ultravox_realtime"), false);
    }

    private static short[] tone(int hz, int ms, int rate) {
        short[] samples = new short[rate / 1_000 * ms];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = (short) (8_000 * Math.sin(2 * Math.PI * hz * i / rate));
        }
        return samples;
    }

    private static double crossingsPerSecond(short[] samples, int rate) {
        int crossings = 0;
        for (int i = 1; i < samples.length; i++) {
            if ((samples[i - 1] < 0) != (samples[i] < 0)) {
                crossings++;
            }
        }
        return crossings * (double) rate / samples.length;
    }

    private static JsonObject agent(String delta) {
        return new JsonObject().put("type", "transcript").put("role", "agent").put("medium", "voice")
                .put("delta", delta).put("final", false);
    }

    /** A call whose agent opened it: created, joined and started. */
    private static SpeechToSpeech.Stream call(Heard heard, AudioFormat format) throws InterruptedException {
        SpeechToSpeech.Stream stream = realtime.open(ultravox(KEY), format, heard);
        stream.configure(new SpeechToSpeech.Setup(NODE, List.of(LOOKUP), true));
        stream.respond(null);
        await(() -> JOINED.size() == 1, "the call joined");
        return stream;
    }

    @Test
    void theCallIsCreatedWhenTheAgentIsFirstAskedToSpeakAndTheCallersAudioGoesAsPcm() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = realtime.open(ultravox(KEY), AudioFormat.MULAW_8K, heard);
        stream.configure(new SpeechToSpeech.Setup(NODE, List.of(LOOKUP), true));
        byte[] mulaw = G711.encode(tone(1_000, 200, 8_000));
        for (int at = 0; at < mulaw.length; at += 160) {
            stream.audio(Arrays.copyOfRange(mulaw, at, at + 160));
        }
        Thread.sleep(100);
        assertThat(CREATED).as("no call before the engine asks for speech").isEmpty();

        stream.respond(NODE + "\n\nBegin your reply by saying exactly: \"Hello\"");
        await(() -> JOINED.size() == 1 && JOINED.getFirst().samples().length == 1_600, "the held audio");
        JsonObject body = CREATED.getFirst();
        assertThat(body.getString("systemPrompt")).isEqualTo(NODE);
        assertThat(body.getString("model")).isEqualTo("ultravox-v0.7");
        assertThat(body.getString("voice")).isEqualTo("Mark");
        assertThat(body.getJsonObject("medium").getJsonObject("serverWebSocket")).isEqualTo(new JsonObject()
                .put("inputSampleRate", 8_000).put("outputSampleRate", 8_000).put("clientBufferSizeMs", 30_000));
        assertThat(body.getJsonObject("firstSpeakerSettings")).as("the agent opens, as asked (less the node's prompt)")
                .isEqualTo(new JsonObject().put("agent", new JsonObject().put("prompt",
                        "Begin your reply by saying exactly: \"Hello\"")));
        JsonObject tool = body.getJsonArray("selectedTools").getJsonObject(0).getJsonObject("temporaryTool");
        assertThat(tool.getString("modelToolName")).isEqualTo("lookup_order");
        assertThat(tool.getString("description")).isEqualTo("Find an order by its number");
        assertThat(tool.getJsonObject("client")).isEmpty();
        assertThat(tool.getJsonArray("dynamicParameters")).containsExactly(new JsonObject().put("name", "order")
                .put("location", "PARAMETER_LOCATION_BODY").put("schema", new JsonObject().put("type", "string"))
                .put("required", false));
        assertThat(body.containsKey("initialMessages")).isFalse();
        assertThat(PRIORS).containsExactly("null");
        short[] sent = JOINED.getFirst().samples();
        assertThat(crossingsPerSecond(sent, 8_000)).as("the caller's 1 kHz, decoded").isBetween(1_950.0, 2_050.0);
        assertThat(JOINED.getFirst().data).as("nothing else was asked").isEmpty();
        stream.close();
        await(JOINED.getFirst().ws::isClosed, "the call left");
    }

    @Test
    void aRecordedGreetingIsTheAgentsFirstMessageAndTheCallerSpeaksNext() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = realtime.open(ultravox(KEY), AudioFormat.MULAW_8K, heard);
        stream.configure(new SpeechToSpeech.Setup(NODE, List.of(), true));
        stream.said("Hello, this is Ada.");
        await(() -> JOINED.size() == 1, "the call joined");
        JsonObject body = CREATED.getFirst();
        assertThat(body.getJsonObject("firstSpeakerSettings")).isEqualTo(new JsonObject().put("user",
                new JsonObject()));
        assertThat(body.getJsonArray("initialMessages")).containsExactly(new JsonObject()
                .put("role", "MESSAGE_ROLE_AGENT").put("text", "Hello, this is Ada.")
                .put("medium", "MESSAGE_MEDIUM_VOICE"));
        assertThat(body.getJsonArray("selectedTools")).isEmpty();
        stream.close();
    }

    @Test
    void theAgentsTurnIsAResponseAndTheCallersTurnIsStoppedThenHeard() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.MULAW_8K);
        Joined joined = JOINED.getFirst();
        joined.state("thinking");
        joined.state("speaking");
        byte[] pcm = Pcm16.bytes(tone(440, 200, 8_000));
        joined.ws.writeBinaryMessage(Buffer.buffer(Arrays.copyOfRange(pcm, 0, 1_001))); // a sample split in two
        joined.ws.writeBinaryMessage(Buffer.buffer(Arrays.copyOfRange(pcm, 1_001, pcm.length)));
        joined.send(agent("Hello,"));
        joined.send(agent(" how can I help?"));
        joined.state("listening");
        await(() -> heard.responses.size() == 1, "the greeting");
        assertThat(heard.events).containsExactly("responseStarted:ultravox-r1", "audio:ultravox-r1",
                "transcript:ultravox-r1:Hello,", "transcript:ultravox-r1: how can I help?",
                "done:ultravox-r1:completed");
        assertThat(heard.responses.getFirst().text()).isEqualTo("Hello, how can I help?");
        assertThat(heard.responses.getFirst().usage()).isEqualTo(TokenUsage.ZERO);
        short[] played = G711.decode(heard.audio());
        assertThat(played.length).as("200 ms of 8 kHz PCM as μ-law").isEqualTo(1_600);
        assertThat(crossingsPerSecond(played, 8_000)).isBetween(850.0, 910.0);

        heard.events.clear();
        joined.state("thinking"); // the caller spoke and stopped
        joined.send(new JsonObject().put("type", "transcript").put("role", "user").put("medium", "voice")
                .put("text", "Where is my order?").put("final", true));
        joined.state("speaking");
        joined.send(agent("Let me see."));
        joined.state("listening");
        await(() -> heard.responses.size() == 2, "the answer");
        assertThat(heard.events).containsExactly("speechStopped:ultravox-u1", "heard:ultravox-u1:Where is my order?",
                "responseStarted:ultravox-r2", "transcript:ultravox-r2:Let me see.", "done:ultravox-r2:completed");
        stream.close();
    }

    @Test
    void aFunctionCallEndsWithTheAgentsWordsAndItsResultGoesWhenTheEngineAsksAndANewNodeRidesOnIt()
            throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.MULAW_8K);
        Joined joined = JOINED.getFirst();
        joined.state("thinking");
        joined.state("speaking");
        joined.send(agent("Let me check."));
        joined.send(new JsonObject().put("type", "client_tool_invocation").put("toolName", "lookup_order")
                .put("invocationId", "inv-1").put("parameters", new JsonObject().put("order", "A12")));
        Thread.sleep(100);
        assertThat(heard.responses).as("the agent's words before the call are still out").isEmpty();
        joined.state("listening");
        await(() -> heard.responses.size() == 1, "the response with its call");
        assertThat(heard.responses.getFirst().calls()).containsExactly(new ToolCall("inv-1", "lookup_order",
                Map.of("order", "A12")));
        assertThat(heard.responses.getFirst().text()).isEqualTo("Let me check.");

        stream.answer("inv-1", "{\"status\":\"shipped\"}");
        Thread.sleep(100);
        assertThat(joined.data).as("the result waits for the engine's request").isEmpty();
        stream.respond(null);
        await(() -> joined.data.size() == 1, "the result");
        assertThat(joined.data.getFirst()).isEqualTo(new JsonObject().put("type", "client_tool_result")
                .put("invocationId", "inv-1").put("result", "{\"status\":\"shipped\"}"));

        joined.state("thinking");
        joined.send(new JsonObject().put("type", "client_tool_invocation").put("toolName", "lookup_order")
                .put("invocationId", "inv-2").put("parameters", new JsonObject()));
        await(() -> heard.responses.size() == 2, "a call without words: at once");
        SpeechToSpeech.Setup shipping = new SpeechToSpeech.Setup("You are Ada, now about shipping.", List.of(), true);
        stream.configure(shipping); // the engine's ask: the new node, the result, the request
        stream.answer("inv-2", "moved");
        stream.respond("You are Ada, now about shipping.\n\nBegin your reply by saying exactly: \"Good news\"");
        await(() -> joined.data.size() == 3, "the request and the stage");
        assertThat(joined.data.get(1)).isEqualTo(new JsonObject().put("type", "user_text_message")
                .put("text", "Begin your reply by saying exactly: \"Good news\"").put("urgency", "later"));
        JsonObject stage = joined.data.get(2);
        assertThat(stage.getString("type")).isEqualTo("client_tool_result");
        assertThat(stage.getString("invocationId")).isEqualTo("inv-2");
        assertThat(stage.getString("responseType")).isEqualTo("new-stage");
        assertThat(new JsonObject(stage.getString("result"))).isEqualTo(new JsonObject()
                .put("systemPrompt", "You are Ada, now about shipping.").put("selectedTools", new JsonArray())
                .put("toolResultText", "moved"));

        joined.state("speaking"); // the result's own answer, not the caller's turn
        joined.send(agent("Good news."));
        joined.state("listening");
        await(() -> heard.responses.size() == 3, "the answer");
        assertThat(heard.events).noneMatch(e -> e.startsWith("speechStopped") || e.startsWith("failed"));
        stream.close();
    }

    @Test
    void aBargeInIsTheCallersSpeechAndCancelsTheResponse() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.MULAW_8K);
        Joined joined = JOINED.getFirst();
        joined.state("speaking");
        joined.ws.writeBinaryMessage(Buffer.buffer(Pcm16.bytes(tone(440, 100, 8_000))));
        await(() -> heard.audio().length == 800, "the agent's audio");
        joined.send(new JsonObject().put("type", "playback_clear_buffer"));
        joined.ws.writeBinaryMessage(Buffer.buffer(Pcm16.bytes(tone(440, 100, 8_000))));
        joined.state("listening");
        await(() -> heard.responses.size() == 1, "the end");
        assertThat(heard.events).containsExactly("responseStarted:ultravox-r1", "audio:ultravox-r1", "speechStarted",
                "done:ultravox-r1:cancelled");
        assertThat(heard.audio()).hasSize(800);
        stream.truncate("ultravox-r1", 50);
        joined.send(new JsonObject().put("type", "transcript").put("role", "user").put("medium", "voice")
                .put("text", "Stop.").put("final", true));
        await(() -> heard.events.contains("heard:ultravox-u1:Stop."), "the caller's words");
        assertThat(joined.data).as("nothing to truncate").isEmpty();
        stream.close();
    }

    @Test
    void aBrowsersPcmGoesAsItIsAt16Khz() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.PCM_16K);
        Joined joined = JOINED.getFirst();
        assertThat(CREATED.getFirst().getJsonObject("medium").getJsonObject("serverWebSocket")
                .getInteger("inputSampleRate")).isEqualTo(16_000);
        byte[] pcm = Pcm16.bytes(tone(500, 20, 16_000));
        stream.audio(pcm);
        await(() -> joined.samples().length == 320, "the audio");
        assertThat(Pcm16.bytes(joined.samples())).isEqualTo(pcm);
        joined.state("speaking");
        joined.ws.writeBinaryMessage(Buffer.buffer(pcm));
        await(() -> heard.audio().length == pcm.length, "the agent's audio");
        assertThat(heard.audio()).isEqualTo(pcm);
        stream.close();
    }

    @Test
    void aRefusedKeyFailsAtOnceWithUltravoxsWords() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = realtime.open(ultravox("wrong"), AudioFormat.MULAW_8K, heard);
        stream.configure(new SpeechToSpeech.Setup(NODE, List.of(), true));
        stream.respond(null);
        await(() -> !heard.failures().isEmpty(), "the refusal");
        assertThat(heard.failures()).containsExactly("failed:Ultravox: POST /api/calls answered 403: Invalid API key");
        assertThat(JOINED).isEmpty();
    }

    @Test
    void aCreationNeverAnsweredFailsOnceTheBudgetIsSpentAnd503IsTriedAgain() throws Exception {
        hang = true;
        Heard heard = new Heard();
        long started = System.nanoTime();
        SpeechToSpeech.Stream stream = realtime.open(ultravox(KEY), AudioFormat.MULAW_8K, heard);
        stream.configure(new SpeechToSpeech.Setup(NODE, List.of(), true));
        stream.respond(null);
        await(() -> !heard.failures().isEmpty(), "the time-out");
        assertThat(heard.failures()).singleElement().asString().startsWith("failed:Ultravox: ");
        assertThat((System.nanoTime() - started) / 1_000_000).as("three tries of 600 ms").isGreaterThan(1_500);

        hang = false;
        UNAVAILABLE.set(1);
        Heard again = new Heard();
        SpeechToSpeech.Stream second = realtime.open(ultravox(KEY), AudioFormat.MULAW_8K, again);
        second.configure(new SpeechToSpeech.Setup(NODE, List.of(), true));
        second.respond(null);
        await(() -> JOINED.size() == 1, "joined after a 503");
        assertThat(again.failures()).isEmpty();
        second.close();
    }

    @Test
    void aDroppedCallIsContinuedByANewOneWithItsHistoryAndDropsBeyondTheBudgetFail() throws Exception {
        Heard heard = new Heard();
        SpeechToSpeech.Stream stream = call(heard, AudioFormat.MULAW_8K);
        Joined first = JOINED.getFirst();
        first.state("thinking");
        first.send(new JsonObject().put("type", "client_tool_invocation").put("toolName", "lookup_order")
                .put("invocationId", "inv-1").put("parameters", new JsonObject()));
        await(() -> heard.responses.size() == 1, "the call");
        SpeechToSpeech.Setup next = new SpeechToSpeech.Setup("Next node.", List.of(), true);
        stream.configure(next);
        first.ws.close((short) 1011, "Internal error");
        await(() -> JOINED.size() == 2, "a new call");
        assertThat(PRIORS).containsExactly("null", "call-1");
        JsonObject body = CREATED.get(1);
        assertThat(body.getString("systemPrompt")).as("the current node").isEqualTo("Next node.");
        assertThat(body.getJsonObject("firstSpeakerSettings")).as("the caller goes on")
                .isEqualTo(new JsonObject().put("user", new JsonObject()));
        stream.answer("inv-1", "found");
        stream.respond(null);
        Joined second = JOINED.get(1);
        await(() -> second.data.size() == 1, "the old call's result");
        assertThat(second.data.getFirst()).as("as text that asks for the response").isEqualTo(new JsonObject()
                .put("type", "user_text_message").put("text", "[Function lookup_order returned found]")
                .put("urgency", "soon"));
        assertThat(heard.failures()).isEmpty();

        second.ws.close((short) 1011, "Internal error");
        await(() -> JOINED.size() == 3, "tried again");
        JOINED.get(2).ws.close((short) 1011, "Internal error");
        await(() -> JOINED.size() == 4, "a third time");
        JOINED.get(3).ws.close((short) 1011, "Internal error");
        await(() -> !heard.failures().isEmpty(), "the budget spent");
        assertThat(heard.failures()).containsExactly("failed:Ultravox closed the call (1011 Internal error)");
        stream.close();
    }

    @Test
    void theKeyCheckAsksForTheAccount() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(ultravox(KEY)).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(checks.problem(ultravox("wrong")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Ultravox API key")
                        .contains("403", "Invalid API key"));
    }
}
