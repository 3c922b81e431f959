package dev.voiceagent.adapters.outbound.speech;

import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.SILENCE;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.await;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.say;
import static dev.voiceagent.adapters.outbound.speech.SpeechTestKit.sayPcm;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.adapters.outbound.GuardedHttp;
import dev.voiceagent.adapters.outbound.ProviderApis;
import dev.voiceagent.adapters.outbound.ProviderChecks;
import dev.voiceagent.adapters.outbound.speech.FakeListenServer.Handshake;
import dev.voiceagent.adapters.outbound.speech.FakeListenServer.Session;
import dev.voiceagent.adapters.outbound.speech.SpeechTestKit.Heard;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.voice.runtime.port.out.SpeechToText;
import dev.voiceagent.application.voice.runtime.port.out.UnsupportedSpeechProvider;
import dev.voiceagent.domain.audio.AudioFormat;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.outbound.RetryBudget;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Azure Speech as a call listens with it, against a local server that speaks the Speech service's WebSocket protocol,
 * an oracle of the audio ({@link FakeListenServer}): the connection asked for (the key in Ocp-Apim-Subscription-Key, a
 * connection id, the language, detailed results), every message framed with Path, X-RequestId and X-Timestamp (text:
 * header lines, a blank line, JSON; binary: a big-endian header length, header lines, audio), speech.config once a
 * socket, then each turn speech.context (language, detailed output, the dictionary as a phrase list) and a RIFF/WAVE
 * header of the call's format before its audio, a hypothesis for each message that carries words, a phrase of its own
 * when a message is silent after words (its segmentation, with Offset and Duration in ticks from the turn's audio), the
 * turn's audio ended (no body) answered by the phrases owed, speech.endDetected and turn.end, and nothing else sent
 * (no keep-alive). And the faults: an upgrade refused with 401, a close with 1007, a Forbidden phrase (no second
 * try), connections that time out, an Error phrase and a socket closed mid-line (opened again, the audio a phrase
 * settled not sent again); and the key check, the region's voice list.
 */
class AzureListenTest {

    private static final String KEY = "az-key";
    private static Vertx vertx;
    private static FakeListenServer server;
    private static GuardedHttp http;
    private static ProviderApis apis;
    private static SpeechProviders speech;

    /** One message as the server read it. */
    record Message(String path, String requestId, String timestamp, String contentType, byte[] body) {
    }

    /** What the server knows of a socket's turns. */
    static final class Turns {
        final List<Message> messages = new CopyOnWriteArrayList<>();
        /** Each turn's WAVE header, by request id. */
        final Map<String, byte[]> headers = new ConcurrentHashMap<>();
        /** The frame each turn's audio began at, by request id. */
        final Map<String, Integer> from = new HashMap<>();
        volatile long turnEndDelayMs = 1;
        boolean speaking;
    }

    private static final Map<Session, Turns> TURNS = new ConcurrentHashMap<>();

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = new FakeListenServer(vertx, r -> KEY.equals(r.getHeader("Ocp-Apim-Subscription-Key"))
                || "quota-key".equals(r.getHeader("Ocp-Apim-Subscription-Key")) ? null : 401,
                AzureListenTest::voices, AzureListenTest::serve);
        http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofMillis(800));
        apis = new ProviderApis(server.base + "/v1", server.base, "v", server.base, server.base, server.base, "v")
                .pointing("azure_stt", server.base).pointing("azure_speech", server.base);
        speech = new SpeechProviders(http, apis, vertx, Duration.ofMillis(800), 3, Duration.ofMillis(200),
                Duration.ofSeconds(2));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        server.clear();
        TURNS.clear();
    }

    /** GET /cognitiveservices/voices/list: the key check. */
    private static void voices(HttpServerRequest request) {
        boolean known = KEY.equals(request.getHeader("Ocp-Apim-Subscription-Key"));
        request.response().setStatusCode(known ? 200 : 401).putHeader("Content-Type", "application/json")
                .end(known ? "[]" : "{\"error\":{\"code\":\"401\",\"message\":\"Access denied due to invalid"
                        + " subscription key or wrong API endpoint.\"}}");
    }

    private static Map<String, String> headerLines(String head) {
        Map<String, String> headers = new HashMap<>();
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1)
                        .strip());
            }
        }
        return headers;
    }

    /** The Speech service: 1007 for the xx-XX language, a Forbidden phrase for the key over its quota. */
    private static void serve(Session session) {
        if ("xx-XX".equals(session.params.get("language"))) {
            session.ws.close((short) 1007, "Unsupported language xx-XX");
            return;
        }
        Turns turns = new Turns();
        TURNS.put(session, turns);
        int frameBytes = "quota-key".equals(session.headers.get("Ocp-Apim-Subscription-Key")) ? -1 : 0;
        session.ws.textMessageHandler(text -> {
            int split = text.indexOf("\r\n\r\n");
            Map<String, String> h = headerLines(text.substring(0, split));
            turns.messages.add(new Message(h.get("path"), h.get("x-requestid"), h.get("x-timestamp"),
                    h.get("content-type"), text.substring(split + 4).getBytes(StandardCharsets.UTF_8)));
            session.received.add(h.get("path"));
        });
        session.ws.binaryMessageHandler(buffer -> {
            int length = buffer.getShort(0);
            Map<String, String> h = headerLines(buffer.getString(2, 2 + length, "US-ASCII"));
            byte[] body = buffer.getBytes(2 + length, buffer.length());
            String id = h.get("x-requestid");
            turns.messages.add(new Message(h.get("path"), id, h.get("x-timestamp"), h.get("content-type"), body));
            if ("audio/x-wav".equals(h.get("content-type"))) {
                session.received.add("header");
                turns.headers.put(id, body);
                turns.from.put(id, session.frames.size());
                return;
            }
            if (body.length == 0) { // the turn's audio ended: the phrases owed, then the turn's end
                session.received.add("end");
                vertx.setTimer(turns.turnEndDelayMs, t -> {
                    phrase(session, turns, id);
                    send(session, id, "speech.endDetected", new JsonObject().put("Offset", 0));
                    send(session, id, "turn.end", new JsonObject());
                });
                return;
            }
            if (frameBytes < 0) {
                send(session, id, "speech.phrase", new JsonObject().put("RecognitionStatus", "Forbidden"));
                return;
            }
            int bytes = ByteBuffer.wrap(turns.headers.get(id)).order(ByteOrder.LITTLE_ENDIAN).getShort(20) == 7
                    ? 160 : 640;
            int before = session.frames.size();
            session.heard(body, bytes);
            boolean words = session.frames.subList(before, session.frames.size()).stream().anyMatch(w -> w != SILENCE);
            if (words) {
                turns.speaking = true;
                send(session, id, "speech.hypothesis", new JsonObject().put("Text", String.join(" ",
                        session.words(session.settled))).put("Offset", 0).put("Duration", 0));
            } else if (turns.speaking) { // a pause after words: Azure's segmentation ends the phrase
                turns.speaking = false;
                phrase(session, turns, id);
            }
        });
    }

    /** A phrase of the words not settled yet, Offset and Duration in ticks from the turn's first audio. */
    private static void phrase(Session session, Turns turns, String id) {
        int from = turns.from.getOrDefault(id, 0);
        int first = session.settled;
        int last = session.frames.size();
        for (int i = session.frames.size() - 1; i >= first && session.frames.get(i) == SILENCE; i--) {
            last = i;
        }
        List<String> said = session.words(first);
        session.settled = last; // the pause after the words is not the phrase's
        turns.speaking = false;
        if (said.isEmpty()) {
            return;
        }
        String display = String.join(" ", said);
        display = display.substring(0, 1).toUpperCase(Locale.ROOT) + display.substring(1) + ".";
        send(session, id, "speech.phrase", new JsonObject().put("RecognitionStatus", "Success")
                .put("Offset", (first - from) * 200_000L).put("Duration", (last - first) * 200_000L)
                .put("NBest", new JsonArray().add(new JsonObject().put("Confidence", 0.9)
                        .put("Lexical", String.join(" ", said)).put("Display", display))));
    }

    private static void send(Session session, String requestId, String path, JsonObject body) {
        if (!session.ws.isClosed()) {
            session.ws.writeTextMessage("X-RequestId:" + requestId + "\r\nContent-Type:application/json;"
                    + " charset=utf-8\r\nPath:" + path + "\r\n\r\n" + body.encode());
        }
    }

    private static ModelEndpoint azure(String key, String language, String region) {
        return new ModelEndpoint(ModelService.STT, "azure_speech", "latest_long", null, List.of(key),
                Map.of("provider", "azure_speech", "model", "latest_long", "language", language, "region", region),
                false);
    }

    private static AzureListen listen(Heard heard, Duration timeout) {
        String url = server.ws() + AzureListen.query("en-US");
        return new AzureListen(() -> http.webSocket(url, Map.of("Ocp-Apim-Subscription-Key", KEY, "X-ConnectionId",
                AzureListen.id()), timeout, true), vertx, new RetryBudget(3, Duration.ofMillis(200),
                Duration.ofSeconds(2)), AudioFormat.MULAW_8K, "en-US", List.of(), heard);
    }

    @Test
    void theConnectionConfigAndEachTurnsContextAndWaveHeaderComeFirstAndAnEndedTurnIsOneFinal() throws Exception {
        Heard heard = new Heard();
        SpeechToText.Stream stream = speech.open(azure(KEY, "en-US", "eastus").withKeyterms(List.of("Acme Pay")),
                AudioFormat.MULAW_8K, heard);
        await(() -> server.sessions.size() == 1, "the socket");
        Session session = server.sessions.getFirst();
        Turns turns = TURNS.get(session);
        assertThat(session.path).isEqualTo(AzureListen.PATH);
        assertThat(session.params.get("language")).isEqualTo("en-US");
        assertThat(session.params.get("format")).isEqualTo("detailed");
        assertThat(session.headers.get("Ocp-Apim-Subscription-Key")).isEqualTo(KEY);
        assertThat(session.headers.get("X-ConnectionId")).matches("[0-9A-F]{32}");

        say(stream, 1, 10);
        say(stream, 2, 7);
        await(() -> heard.events.contains("interim:where is"), "the hypotheses");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the ended turn's final");
        assertThat(heard.finals()).containsExactly("final:Where is.");
        say(stream, 3, 5);
        await(() -> session.frames.size() == 22, "the next turn's audio");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the next turn's final");
        stream.finalizeNow(); // nothing said since: the turn ends with no phrase
        await(() -> heard.finals().size() == 3, "the empty final");
        assertThat(heard.finals()).containsExactly("final:Where is.", "final:My.", "final:");

        stream.close();
        await(session.ws::isClosed, "closed once Azure ended the last turn");
        assertThat(session.received).as("config once; context and header each turn; audio; ends; no keep-alive")
                .containsExactly("speech.config", "speech.context", "header", "audio", "audio", "audio", "audio",
                        "end", "speech.context", "header", "audio", "end", "speech.context", "header", "end",
                        "speech.context", "header", "end");
        List<Message> messages = turns.messages;
        assertThat(messages).allSatisfy(m -> {
            assertThat(m.requestId()).matches("[0-9A-F]{32}");
            assertThat(m.timestamp()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z");
        });
        assertThat(messages.get(0).requestId()).as("the first turn's id from the config on")
                .isEqualTo(messages.get(1).requestId()).isEqualTo(messages.get(7).requestId());
        assertThat(messages.get(8).requestId()).as("a turn of its own after the end")
                .isNotEqualTo(messages.get(0).requestId());
        assertThat(messages.get(3).body()).as("100 ms of μ-law a message").hasSize(800);
        assertThat(messages.get(6).body()).as("what was left before the end").hasSize(320);
        JsonObject config = new JsonObject(new String(messages.get(0).body(), StandardCharsets.UTF_8));
        assertThat(config.getJsonObject("context").getJsonObject("system").getString("name")).isEqualTo("voiceagent");
        JsonObject context = new JsonObject(new String(messages.get(1).body(), StandardCharsets.UTF_8));
        assertThat(messages.get(1).contentType()).isEqualTo("application/json");
        assertThat(context.getJsonObject("phraseDetection").getString("language")).isEqualTo("en-US");
        assertThat(context.getJsonObject("phraseOutput").getString("format")).isEqualTo("Detailed");
        assertThat(context.getJsonObject("dgi").getJsonArray("groups").getJsonObject(0).getJsonArray("items")
                .getJsonObject(0).getString("text")).isEqualTo("Acme Pay");
        ByteBuffer wave = ByteBuffer.wrap(messages.get(2).body()).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(new String(messages.get(2).body(), 0, 4, StandardCharsets.US_ASCII)).isEqualTo("RIFF");
        assertThat(wave.getShort(20)).as("μ-law, as the phone has it").isEqualTo((short) 7);
        assertThat(wave.getInt(24)).isEqualTo(8_000);
        assertThat(wave.getShort(34)).isEqualTo((short) 8);
        assertThat(stream.seconds()).isEqualTo(0.44);
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));

        Heard browser = new Heard();
        SpeechToText.Stream pcm = speech.open(azure(KEY, "de-DE", "westeurope"), AudioFormat.PCM_16K, browser);
        await(() -> server.sessions.size() == 2, "the browser's socket");
        Session second = server.sessions.get(1);
        assertThat(second.params.get("language")).isEqualTo("de-DE");
        sayPcm(pcm, 4, 5);
        pcm.finalizeNow();
        await(() -> browser.finals().size() == 1, "the browser's turn");
        assertThat(browser.finals()).containsExactly("final:Order.");
        ByteBuffer pcmWave = ByteBuffer.wrap(TURNS.get(second).messages.get(2).body()).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(pcmWave.getShort(20)).isEqualTo((short) 1);
        assertThat(pcmWave.getInt(24)).isEqualTo(16_000);
        assertThat(pcmWave.getShort(34)).isEqualTo((short) 16);
        assertThat(new JsonObject(new String(TURNS.get(second).messages.get(1).body(), StandardCharsets.UTF_8))
                .containsKey("dgi")).as("no dictionary, no phrase list").isFalse();
        pcm.close();
    }

    @Test
    void whatIsSaidWhileATurnEndsIsTheNextTurnsFirstAudio() throws Exception {
        Heard heard = new Heard();
        AzureListen stream = listen(heard, Duration.ofMillis(800));
        await(() -> server.sessions.size() == 1, "the socket");
        Session session = server.sessions.getFirst();
        TURNS.get(session).turnEndDelayMs = 300; // Azure takes its time to end the turn
        say(stream, 0, 10);
        stream.finalizeNow();
        say(stream, 3, 10); // said before turn.end: held, then the next turn's
        await(() -> heard.finals().size() == 1, "the first turn");
        assertThat(session.received).as("nothing of the new words before the turn ended").startsWith(
                "speech.config", "speech.context", "header", "audio", "audio", "end", "speech.context", "header",
                "audio", "audio");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the second turn");
        assertThat(heard.finals()).containsExactly("final:Hello.", "final:My.");
        stream.close();
    }

    @Test
    void aPhraseOfItsOwnSettlesItsAudioAnErrorOrADropOpensTheSocketAgainWithTheRestOnly() throws Exception {
        Heard heard = new Heard();
        AzureListen stream = listen(heard, Duration.ofMillis(800));
        await(() -> server.sessions.size() == 1, "the first socket");
        say(stream, 0, 10);
        say(stream, SILENCE, 5); // a pause: Azure's own phrase
        await(() -> heard.finals().size() == 1, "Azure's phrase");
        assertThat(heard.finals()).containsExactly("final:Hello.");

        say(stream, 3, 10);
        await(() -> server.sessions.getFirst().frames.size() == 25, "the next words at the first socket");
        server.handshakes.add(Handshake.accept(300));
        server.sessions.getFirst().ws.close((short) 1011, "internal error");
        await(() -> server.upgradesAt.size() == 2, "opened again at once");
        say(stream, 4, 10); // said during the gap
        await(() -> server.sessions.size() == 2, "the second socket");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 2, "the line across the drop");
        assertThat(heard.finals()).containsExactly("final:Hello.", "final:My order.");
        Session second = server.sessions.get(1);
        assertThat(second.frames).as("after the phrase's end: the pause, then the rest").doesNotContain(0)
                .startsWith(SILENCE, SILENCE, SILENCE, SILENCE, SILENCE, 3).endsWith(4).hasSize(25);
        assertThat(second.received).startsWith("speech.config", "speech.context", "header");

        server.handshakes.add(Handshake.accept(0));
        String id = TURNS.get(second).messages.getLast().requestId();
        send(second, id, "speech.phrase", new JsonObject().put("RecognitionStatus", "Error"));
        await(() -> server.sessions.size() == 3, "opened again after the error");
        say(stream, 2, 5);
        stream.finalizeNow();
        await(() -> heard.finals().size() == 3, "heard on the third socket");
        assertThat(heard.finals().getLast()).isEqualTo("final:Is.");
        assertThat(stream.seconds()).isEqualTo(0.8);
        stream.close();
        assertThat(heard.events).noneMatch(e -> e.startsWith("failed:"));
    }

    @Test
    void aRefusedKeyABadLanguageOrAForbiddenPhraseFailsTheStreamOnce() throws Exception {
        Heard refused = new Heard();
        speech.open(azure("wrong", "en-US", "eastus"), AudioFormat.MULAW_8K, refused).audio(new byte[160]);
        await(() -> !refused.events.isEmpty(), "the refusal");
        Thread.sleep(500);
        assertThat(refused.events).singleElement().asString().startsWith("failed:Azure Speech").contains("401");
        assertThat(server.upgradesAt).as("a refused key is not worth another try").hasSize(1);

        server.clear();
        Heard language = new Heard();
        speech.open(azure(KEY, "xx-XX", "eastus"), AudioFormat.MULAW_8K, language);
        await(() -> !language.events.isEmpty(), "the close");
        Thread.sleep(500);
        assertThat(language.events).singleElement().asString().startsWith("failed:Azure Speech closed the stream")
                .contains("1007", "Unsupported language xx-XX");
        assertThat(server.upgradesAt).hasSize(1);

        server.clear();
        Heard quota = new Heard();
        SpeechToText.Stream overQuota = speech.open(azure("quota-key", "en-US", "eastus"), AudioFormat.MULAW_8K,
                quota);
        say(overQuota, 1, 5);
        await(() -> !quota.events.isEmpty(), "the Forbidden phrase");
        Thread.sleep(500);
        assertThat(quota.events).containsExactly("failed:Azure Speech: Forbidden");
        assertThat(server.upgradesAt).hasSize(1);

        assertThatThrownBy(() -> speech.open(azure(KEY, "en-US", "evil.example/x"), AudioFormat.MULAW_8K,
                new Heard())).isInstanceOf(UnsupportedSpeechProvider.class).hasMessageContaining("is not the name of an Azure region");
    }

    @Test
    void aConnectionThatTimesOutIsTriedAgainAndTheAudioSaidMeanwhileIsHeard() throws Exception {
        server.handshakes.add(Handshake.hang());
        Heard heard = new Heard();
        AzureListen stream = listen(heard, Duration.ofMillis(400));
        say(stream, 1, 10);
        await(() -> server.sessions.size() == 1, "connected on the second try");
        stream.finalizeNow();
        await(() -> heard.finals().size() == 1, "the line");
        assertThat(heard.finals()).containsExactly("final:Where.");
        assertThat(server.secondTryAfterMs()).as("the time limit, then a backoff").isGreaterThanOrEqualTo(450);
        stream.close();

        server.clear();
        for (int i = 0; i < 5; i++) {
            server.handshakes.add(Handshake.hang());
        }
        Heard failed = new Heard();
        listen(failed, Duration.ofMillis(400)).audio(new byte[160]);
        await(() -> !failed.events.isEmpty(), "the failure");
        Thread.sleep(300);
        assertThat(failed.events).singleElement().asString()
                .startsWith("failed:Azure Speech: Could not reach 127.0.0.1");
        assertThat(server.upgradesAt).as("three tries").hasSize(3);
    }

    @Test
    void theKeyIsCheckedWithTheRegionsVoiceList() {
        ProviderChecks checks = new ProviderChecks(http, apis);
        assertThat(checks.problem(azure(KEY, "en-US", "eastus")).await().atMost(Duration.ofSeconds(5))).isEmpty();
        assertThat(server.requests).singleElement().satisfies(r -> {
            assertThat(r.method().name()).isEqualTo("GET");
            assertThat(r.path()).isEqualTo("/cognitiveservices/voices/list");
        });
        assertThat(checks.problem(azure("wrong", "en-US", "eastus")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).startsWith("Invalid Azure Speech API key")
                        .contains("401", "invalid subscription key"));
        assertThat(checks.problem(azure(KEY, "en-US", "east us")).await().atMost(Duration.ofSeconds(5)))
                .hasValueSatisfying(problem -> assertThat(problem).contains("is not the name of an Azure region"));
        assertThat(server.upgradesAt).isEmpty();
        ProviderApis installed = new ProviderApis("o", "g", "v", "e", "d", "c", "v");
        installed.pointing("azure_stt", ProviderApis.PUBLIC.get("azure_stt"));
        assertThat(installed.azureListen(" WestEurope")).isEqualTo("https://westeurope.stt.speech.microsoft.com");
    }
}
