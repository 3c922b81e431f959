package dev.voiceagent.deploy.e2e;

import static dev.voiceagent.deploy.support.TwilioCalls.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeProviderServer;
import dev.voiceagent.deploy.support.FakeVoiceProviders;
import dev.voiceagent.deploy.support.FakeVoiceProviders.ChatFault;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Faults;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Injected;
import dev.voiceagent.deploy.support.FakeVoiceProviders.Reply;
import dev.voiceagent.deploy.support.HeardLines;
import dev.voiceagent.deploy.support.SimulatedCaller;
import dev.voiceagent.deploy.support.TwilioCalls;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import io.vertx.core.Vertx;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import io.vertx.core.json.JsonObject;
import jakarta.inject.Inject;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Whole phone calls that ride out a provider's fault, one fault per call, injected once after the caller's first turn
 * (but for a first connection refused, which is at the call's start) by the local fakes speaking Deepgram's, OpenAI's,
 * ElevenLabs', Cartesia's and Aura's protocols ({@link FakeVoiceProviders}'s fault plans). Every call is the same
 * three turns and must end as its script says (the goodbye node, never pipeline_error), its transcript holding every
 * line both sides said exactly once, and its usage what the fakes served: the characters of the sentences whose audio
 * went out whole, the tokens of the answers that finished, the caller's audio once. The recognizers hear the caller's
 * lines from the audio they were sent ({@link HeardLines}), so a line said across a drop is understood only if its
 * audio reached the socket that answered. Then fallbacks (a provider down for good, the configuration's next one
 * taking over for the rest of the call), and media sockets that never start or send a frame no transport takes.
 */
@QuarkusTest
@TestProfile(ProviderFaultsEndToEndTest.ShortWaits.class)
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeProviderServer.class)
@WithTestResource(FakeVoiceProviders.class)
class ProviderFaultsEndToEndTest {

    /** A model's first byte awaited 1 s (3 s in production); a media socket's start 2 s (10 s). */
    public static final class ShortWaits implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("voiceagent.models.first-byte-timeout", "PT1S", "voiceagent.media.start-timeout", "PT2S");
        }
    }

    private static final List<String> LINES = List.of("Where is my order?", "When will it arrive?",
            "No that is all thanks.");
    private static final String FIRST_ANSWER = "It left our warehouse this morning.";
    private static final String SECOND_ANSWER = "It should arrive on Thursday. The driver will call you first.";
    private static final String GOODBYE = "Thank you, goodbye.";
    /** Every sentence the agent says, in order: the greeting's two, the answers', the goodbye. */
    private static final List<String> SENTENCES = List.of("Hello, this is Acme.", "How can I help you?", FIRST_ANSWER,
            "It should arrive on Thursday.", "The driver will call you first.", GOODBYE);
    private static final String TRANSCRIPT = """
            assistant: Hello, this is Acme. How can I help you?
            user: Where is my order?
            assistant: It left our warehouse this morning.
            user: When will it arrive?
            assistant: It should arrive on Thursday. The driver will call you first.
            user: No that is all thanks.
            assistant: Thank you, goodbye.
            """;
    private static final String ELEVENLABS = "elevenlabs/eleven_flash_v2_5";
    private static final String DEEPGRAM = "deepgram/nova-3-general";
    private static final String OPENAI = "openai/gpt-4.1-mini";

    @Inject
    Vertx vertx;

    private String key;
    private long workflow;
    private TwilioCalls calls;
    private final List<SimulatedCaller> callers = new ArrayList<>();
    private final List<WebSocketClient> clients = new ArrayList<>();

    @BeforeEach
    void setUp() {
        FakeProviderServer.REQUESTS.clear();
        FakeProviderServer.status = 201;
        FakeVoiceProviders.reset();
        FakeVoiceProviders.hearing = new HeardLines(LINES);
        key = Api.createKey(Api.signUp("faults"), "k");
        models(pipeline(null, null, null));
        workflow = as(key).body(Map.of("name", "Orders", "workflow_definition", VoiceCallEndToEndTest.definition()))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        calls = new TwilioCalls(key);
        FakeVoiceProviders.REPLIES.addAll(List.of(Reply.says(FIRST_ANSWER), Reply.says(SECOND_ANSWER),
                Reply.calls("done"), Reply.says(GOODBYE)));
    }

    @AfterEach
    void hangUp() {
        callers.forEach(SimulatedCaller::close);
        clients.forEach(WebSocketClient::close);
    }

    /**
     * The organization's pipeline: OpenAI's model, Deepgram Nova listening, ElevenLabs speaking, each with the
     * fallbacks given (null: none).
     */
    private static Map<String, Object> pipeline(Map<String, Object> llmFallback, Map<String, Object> sttFallback,
            Map<String, Object> ttsFallback) {
        return Map.of("llm", withFallback(Map.of("provider", "openai", "api_key", "sk-faults", "model",
                        "gpt-4.1-mini"), llmFallback),
                "stt", withFallback(Map.of("provider", "deepgram", "api_key", "dg-faults", "model", "nova-3-general",
                        "language", "en"), sttFallback),
                "tts", withFallback(Map.of("provider", "elevenlabs", "api_key", "el-faults", "voice", "voice123",
                        "model", "eleven_flash_v2_5"), ttsFallback));
    }

    private static Map<String, Object> withFallback(Map<String, Object> stage, Map<String, Object> fallback) {
        if (fallback == null) {
            return stage;
        }
        Map<String, Object> with = new LinkedHashMap<>(stage);
        with.put("fallbacks", List.of(fallback));
        return with;
    }

    private void models(Map<String, Object> pipeline) {
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", pipeline)))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
    }

    /** A finished call: how it ended, its run, the caller who made it. */
    private record Call(String reason, JsonPath run, SimulatedCaller caller) {

        List<Map<String, Object>> events() {
            return run.getList("logs.realtime_feedback_events");
        }
    }

    /**
     * The call of the script: the greeting, "Where is my order?" answered, "When will it arrive?" (where the faults
     * strike) answered in two sentences, "No that is all thanks." moving to the goodbye node, which hangs up after its
     * goodbye. Long pauses: an answer a fault delays must still be heard whole before the caller speaks again.
     */
    private Call call() throws Exception {
        String url = calls.dial(workflow);
        long runId = TwilioCalls.runOf(url);
        SimulatedCaller caller = new SimulatedCaller(vertx);
        callers.add(caller);
        caller.connect(url);
        caller.pauses(1_600).says(LINES.get(0)).pauses(3_000).says(LINES.get(1)).pauses(4_500).says(LINES.get(2))
                .pauses(1_500);
        String reason = calls.ended(caller, workflow, runId, 60);
        return new Call(reason, calls.completedRun(workflow, runId), caller);
    }

    /**
     * What every call that rode out its fault leaves: the goodbye node's end, every line once in the transcript and
     * every sentence's audio heard once, the voice's characters those of the sentences spoken (as the fakes sent them
     * whole), the model's tokens those of the answers that finished, the caller's audio counted once; and the fault,
     * injected once after the caller's first line (unless {@code fromStart}).
     */
    private void assertWhole(Call call, boolean fromStart) {
        assertThat(call.reason()).as("the call ended with %s; faults %s; violations %s",
                call.run().getString("gathered_context.error"), FakeVoiceProviders.INJECTED,
                FakeVoiceProviders.VIOLATIONS).isEqualTo("end_call_node");
        assertThat(call.run().getString("gathered_context.call_disposition")).isEqualTo("end_call_node");
        assertThat(call.run().getString("gathered_context.error")).isNull();
        assertThat(FakeVoiceProviders.VIOLATIONS).isEmpty();
        assertThat(call.caller().violations).isEmpty();
        assertThat(call.caller().speech).hasSize(3);
        assertThat(call.caller().clears).as("nothing the agent said was cut").isEmpty();
        assertThat(TwilioCalls.transcript(call.run())).isEqualTo(TRANSCRIPT);
        assertThat(FakeVoiceProviders.INJECTED).as("the fault was injected").isNotEmpty();
        if (!fromStart) {
            long firstLineEnd = call.caller().speech.getFirst()[1];
            assertThat(FakeVoiceProviders.INJECTED).allSatisfy(fault -> assertThat(fault.at())
                    .as("%s after the caller's first line", fault).isGreaterThan(firstLineEnd));
        }
        // the fakes' 60 ms of audio a word, 20 ms frames: every word of every sentence heard once, none twice
        int words = SENTENCES.stream().mapToInt(s -> s.split(" ").length).sum();
        assertThat(call.caller().agentFrames).as("frames the caller heard").hasSize(3 * words);
        // usage: what the caller heard and the providers made, once
        long tokens = FakeVoiceProviders.TOKENS_SENT.values().stream().mapToLong(t -> t.get()).sum();
        assertThat(tokens).as("four answers finished").isEqualTo(240);
        Map<String, Object> llm = call.run().getMap("usage_info.llm");
        assertThat(llm.values().stream().mapToLong(u -> ((Number) ((Map<?, ?>) u).get("total_tokens")).longValue())
                .sum()).as("tokens metered (%s)", llm).isEqualTo(tokens);
        Map<String, Object> tts = call.run().getMap("usage_info.tts");
        long characters = SENTENCES.stream().mapToInt(String::length).sum();
        assertThat(tts.values().stream().mapToLong(u -> ((Number) ((Map<?, ?>) u).get("characters")).longValue())
                .sum()).as("characters metered (%s)", tts).isEqualTo(characters);
        int spoken = FakeVoiceProviders.SPOKEN.keySet().stream().mapToInt(FakeVoiceProviders::spokenCharacters).sum();
        assertThat(spoken).as("characters the voices sent whole sentences of audio for").isEqualTo(characters);
        double streamed = call.caller().mediaFramesSent() * 0.02;
        Map<String, Object> stt = call.run().getMap("usage_info.stt");
        double heard = stt.values().stream().mapToDouble(u -> ((Number) ((Map<?, ?>) u).get("audio_seconds"))
                .doubleValue()).sum();
        if (stt.size() == 1) {
            assertThat(heard).as("seconds of the caller's audio metered (%s), of %.2f streamed", stt, streamed)
                    .isBetween(streamed - 1.5, streamed + 0.05);
        } else { // a recognizer that took over was sent the audio not yet settled again (at most 10 s)
            assertThat(heard).as("seconds metered (%s), of %.2f streamed", stt, streamed)
                    .isBetween(streamed - 1.5, streamed + 10.05);
        }
    }

    private static List<Injected> injected(String provider) {
        return FakeVoiceProviders.INJECTED.stream().filter(i -> i.provider().equals(provider)).toList();
    }

    private static long sttBytes() {
        return FakeVoiceProviders.STT_BYTES.values().stream().mapToLong(b -> b.get()).sum();
    }

    /** The first agent frame after the caller's second line, from its end (ms). */
    private static long secondAnswerAfter(SimulatedCaller caller) {
        long end = caller.speech.get(1)[1];
        return caller.firstAgentFrameAfter(end) - end;
    }

    // ---- speech-to-text ----

    @Test
    void deepgramsSocketDroppedInTheMiddleOfALineIsOpenedAgainAndTheLineIsUnderstoodOnce() throws Exception {
        Faults faults = FakeVoiceProviders.faults();
        faults.sttDropAfterFinals = 1; // 400 ms into the second line
        faults.sttDropAtVoicedFrame = 20;

        Call call = call();

        assertWhole(call, false);
        assertThat(injected("stt")).singleElement().satisfies(i -> assertThat(i.fault())
                .isEqualTo("socket dropped mid-line"));
        assertThat(FakeVoiceProviders.STT_QUERIES).as("one socket, then another after the drop").hasSize(2);
        assertThat(FakeVoiceProviders.STT_CONTROL).filteredOn("Finalize"::equals).hasSize(3);
        // the second socket got the line's start again (Deepgram bills it twice); usage counts the caller's audio once
        double sent = sttBytes() / 8_000.0;
        double metered = call.run().getDouble("usage_info.stt.'" + DEEPGRAM + "'.audio_seconds");
        assertThat(sent).as("audio the sockets received").isGreaterThan(metered + 0.3);
    }

    @Test
    void deepgramRefusingTheFirstConnectionWith503IsAskedAgainAndHearsWhatWasSaidMeanwhile() throws Exception {
        FakeVoiceProviders.faults().sttRefusals.set(1);

        Call call = call();

        assertWhole(call, true);
        assertThat(FakeVoiceProviders.REFUSED).containsExactly("deepgram 503");
        assertThat(FakeVoiceProviders.STT_QUERIES).as("the socket opened on the second try").hasSize(1);
    }

    @Test
    void deepgramDroppedAfterTheFirstTurnAndRefusingItsReconnectionWith429RetryAfterIsWaitedFor() throws Exception {
        Faults faults = FakeVoiceProviders.faults();
        faults.sttDropAfterFinals = 1;
        faults.sttDropAtVoicedFrame = 5; // early in the second line
        faults.sttRefusalsAfterDrop = 1;
        faults.sttStatus = 429;
        faults.sttRetryAfter = "1";

        Call call = call();

        assertWhole(call, false);
        assertThat(FakeVoiceProviders.REFUSED).containsExactly("deepgram 429");
        assertThat(FakeVoiceProviders.STT_OPENED_AT).hasSize(2);
        long refusedAt = injected("stt").stream().filter(i -> i.fault().startsWith("refused")).findFirst()
                .orElseThrow().at();
        assertThat(FakeVoiceProviders.STT_OPENED_AT.get(1) - refusedAt).as("the reconnection waited for Retry-After")
                .isGreaterThanOrEqualTo(950);
    }

    // ---- the language model ----

    @Test
    void aModelAnswering500OnceIsAskedTheSameTurnAgain() throws Exception {
        FakeVoiceProviders.faults().chat.put(2, ChatFault.refused(500));

        Call call = call();

        assertWhole(call, false);
        assertThat(FakeVoiceProviders.REFUSED).containsExactly("chat 500");
        assertThat(FakeVoiceProviders.CHAT_REQUESTS).hasSize(5);
        assertThat(FakeVoiceProviders.CHAT_REQUESTS.get(2)).as("the same request again")
                .isEqualTo(FakeVoiceProviders.CHAT_REQUESTS.get(1));
    }

    @Test
    void aModelAnswering429WithRetryAfterOneSecondIsAskedAgainAfterIt() throws Exception {
        FakeVoiceProviders.faults().chat.put(2, ChatFault.tooMany(1));

        Call call = call();

        assertWhole(call, false);
        assertThat(FakeVoiceProviders.REFUSED).containsExactly("chat 429");
        assertThat(FakeVoiceProviders.CHAT_REQUESTS).hasSize(5);
        assertThat(FakeVoiceProviders.CHAT_REQUESTS.get(2)).isEqualTo(FakeVoiceProviders.CHAT_REQUESTS.get(1));
        // voice activity's 256 ms, the recognizer's 150 ms, Retry-After's 1 s and the model's 250 ms at the least
        assertThat(secondAnswerAfter(call.caller())).as("the answer came after the wait").isGreaterThan(1_600);
    }

    @Test
    void aModelThatSendsNothingPastTheFirstByteLimitIsResetAndAskedAgain() throws Exception {
        FakeVoiceProviders.faults().chat.put(2, ChatFault.stall());

        Call call = call();

        assertWhole(call, false);
        assertThat(injected("llm")).singleElement().satisfies(i -> assertThat(i.fault()).isEqualTo("stall"));
        assertThat(FakeVoiceProviders.CHAT_REQUESTS).hasSize(5);
        assertThat(FakeVoiceProviders.CHAT_REQUESTS.get(2)).isEqualTo(FakeVoiceProviders.CHAT_REQUESTS.get(1));
        assertThat(FakeVoiceProviders.CHAT_CANCELLED.get()).as("the silent request was reset").isEqualTo(1);
        assertThat(secondAnswerAfter(call.caller())).as("the first-byte limit's second, then the answer")
                .isGreaterThan(1_600);
    }

    @Test
    void aModelStreamBrokenHalfWayIsContinuedAndTheAnswerIsSaidWholeOnce() throws Exception {
        // "It should arrive on Thursday. The driver" written, then the connection breaks
        FakeVoiceProviders.faults().chat.put(2, ChatFault.breakAfter(7));

        Call call = call();

        assertWhole(call, false);
        assertThat(injected("llm")).singleElement().satisfies(i -> assertThat(i.fault())
                .isEqualTo("break after 7 words"));
        assertThat(FakeVoiceProviders.CHAT_REQUESTS).hasSize(5);
        JsonObject continuation = FakeVoiceProviders.CHAT_REQUESTS.get(2);
        List<Object> messages = continuation.getJsonArray("messages").getList();
        assertThat(messages.get(messages.size() - 2)).as("what was said, as the assistant's words")
                .isEqualTo(Map.of("role", "assistant", "content", "It should arrive on Thursday."));
        assertThat(FakeVoiceProviders.TTS_TEXTS).as("each sentence said once").containsExactlyElementsOf(SENTENCES);
        assertThat(call.events()).anySatisfy(e -> {
            assertThat(e.get("type")).isEqualTo("rtf-pipeline-error");
            assertThat(String.valueOf(e.get("payload"))).contains("continued after what was said");
        });
    }

    // ---- text-to-speech ----

    @Test
    void elevenLabsSocketDroppedMidAnswerIsOpenedAgainTheAnswerCompletesAndIsMeteredOnce() throws Exception {
        FakeVoiceProviders.faults().ttsDropAtSentence = 4; // "It should arrive on Thursday.", after its first 100 ms

        Call call = call();

        assertWhole(call, false);
        assertThat(injected("tts")).singleElement().satisfies(i -> assertThat(i.fault())
                .isEqualTo("socket dropped mid-sentence"));
        assertThat(FakeVoiceProviders.TTS_QUERIES).as("a socket, then another after the drop").hasSize(2);
        assertThat(FakeVoiceProviders.TTS_TEXTS).as("the sentence cut, spoken again on the new socket")
                .filteredOn("It should arrive on Thursday."::equals).hasSize(2);
        assertThat(call.run().getInt("usage_info.tts.'" + ELEVENLABS + "'.characters"))
                .isEqualTo(FakeVoiceProviders.spokenCharacters("el-faults"));
    }

    @Test
    void auraRefusingOneSentenceWith500IsAskedForItAgainAndMetersWhatWasSpoken() throws Exception {
        Map<String, Object> pipeline = new LinkedHashMap<>(pipeline(null, null, null));
        pipeline.put("tts", Map.of("provider", "deepgram", "api_key", "dg-aura", "voice", "aura-2-thalia-en"));
        models(pipeline);
        FakeVoiceProviders.faults().speak.put(4, 500); // "It should arrive on Thursday."

        Call call = call();

        assertWhole(call, false);
        assertThat(FakeVoiceProviders.REFUSED).containsExactly("aura 500");
        assertThat(FakeVoiceProviders.TTS_QUERIES).allSatisfy(q -> assertThat(q).startsWith("aura ")
                .contains("model=aura-2-thalia-en", "encoding=mulaw", "sample_rate=8000", "container=none"));
        assertThat(FakeVoiceProviders.TTS_TEXTS).as("the refused sentence asked for again")
                .filteredOn("It should arrive on Thursday."::equals).hasSize(2);
        Map<String, Object> tts = call.run().getMap("usage_info.tts");
        assertThat(tts).hasSize(1);
        assertThat(((Number) ((Map<?, ?>) tts.values().iterator().next()).get("characters")).intValue())
                .as("characters metered (%s)", tts).isEqualTo(FakeVoiceProviders.spokenCharacters("dg-aura"));
    }

    // ---- fallbacks ----

    private static Map<String, Object> switched(Call call, String stage) {
        return TwilioCalls.payloads(call.events(), "rtf-provider-switched").stream()
                .filter(p -> stage.equals(p.get("stage"))).findFirst()
                .orElseThrow(() -> new AssertionError("no switch of " + stage + " in " + call.events()));
    }

    @Test
    void deepgramDownForGoodMidLineIsReplacedByOpenAiTranscriptionWhichHearsTheLine() throws Exception {
        models(pipeline(null, Map.of("provider", "openai", "api_key", "sk-stt-fallback", "model", "gpt-4o-transcribe"),
                null));
        Faults faults = FakeVoiceProviders.faults();
        faults.sttDropAfterFinals = 1;
        faults.sttDropAtVoicedFrame = 10;
        faults.sttDownAfterDrop = true;

        Call call = call();

        assertWhole(call, false);
        assertThat(switched(call, "stt")).containsEntry("from", DEEPGRAM)
                .containsEntry("to", "openai/gpt-4o-transcribe");
        assertThat(FakeVoiceProviders.STT_QUERIES).containsExactly(FakeVoiceProviders.STT_QUERIES.getFirst(),
                "realtime?intent=transcription");
        assertThat(FakeVoiceProviders.REFUSED).as("every reconnection refused").isNotEmpty()
                .allSatisfy(r -> assertThat(r).isEqualTo("deepgram 503"));
        assertThat(call.run().getMap("usage_info.stt")).containsOnlyKeys(DEEPGRAM, "openai/gpt-4o-transcribe");
        assertThat(call.run().getDouble("usage_info.stt.'openai/gpt-4o-transcribe'.audio_seconds"))
                .as("what the fallback was sent").isCloseTo(FakeVoiceProviders.STT_BYTES.get("sk-stt-fallback").get()
                        / 8_000.0, within(0.1));
    }

    @Test
    void deepgramGoingDownWhenAskedToFinalizeALineIsReplacedByOpenAiTranscriptionWhichStillAnswersTheLine()
            throws Exception {
        models(pipeline(null, Map.of("provider", "openai", "api_key", "sk-stt-fallback", "model", "gpt-4o-transcribe"),
                null));
        Faults faults = FakeVoiceProviders.faults();
        faults.sttDropAtFinalize = 2; // the second line's Finalize: the socket goes, and Deepgram with it
        faults.sttDownAfterDrop = true;

        Call call = call();

        assertWhole(call, false);
        assertThat(switched(call, "stt")).containsEntry("to", "openai/gpt-4o-transcribe");
        assertThat(FakeVoiceProviders.STT_CONTROL).as("the line's commit on the fallback").contains("Finalize");
    }

    @Test
    void elevenLabsDownForGoodMidAnswerIsReplacedByCartesiaWhichSaysWhatWasNotHeard() throws Exception {
        models(pipeline(null, null, Map.of("provider", "cartesia", "api_key", "ca-fallback", "voice", "voice-uuid-1")));
        Faults faults = FakeVoiceProviders.faults();
        faults.ttsDropAtSentence = 4;
        faults.ttsDownAfterDrop = true;

        Call call = call();

        assertWhole(call, false);
        assertThat(switched(call, "tts")).containsEntry("from", ELEVENLABS).containsEntry("to", "cartesia/sonic-3.5");
        Map<String, Object> tts = call.run().getMap("usage_info.tts");
        assertThat(tts).containsOnlyKeys(ELEVENLABS, "cartesia/sonic-3.5");
        int before = SENTENCES.subList(0, 3).stream().mapToInt(String::length).sum();
        int after = SENTENCES.subList(3, 6).stream().mapToInt(String::length).sum();
        assertThat(call.run().getInt("usage_info.tts.'" + ELEVENLABS + "'.characters")).as("the greeting and the"
                + " first answer, spoken whole before the drop").isEqualTo(before)
                .isEqualTo(FakeVoiceProviders.spokenCharacters("el-faults"));
        assertThat(call.run().getInt("usage_info.tts.'cartesia/sonic-3.5'.characters")).as("the rest")
                .isEqualTo(after).isEqualTo(FakeVoiceProviders.spokenCharacters("ca-fallback"));
        assertThat(FakeVoiceProviders.REFUSED).isNotEmpty().allSatisfy(r -> assertThat(r).isEqualTo("elevenlabs 503"));
    }

    @Test
    void aModelDownForGoodIsReplacedByAnotherProvidersModelForTheSameTurnAndTheRestOfTheCall() throws Exception {
        models(pipeline(Map.of("provider", "openrouter", "api_key", "or-fallback", "model", "fallback-model",
                "base_url", FakeVoiceProviders.base + "/fallback/v1"), null, null));
        FakeVoiceProviders.faults().chatDownFrom = 2;

        Call call = call();

        assertWhole(call, false);
        assertThat(switched(call, "llm")).containsEntry("from", OPENAI)
                .containsEntry("to", "openrouter/fallback-model");
        assertThat(FakeVoiceProviders.CHAT_REQUESTS.subList(1, FakeVoiceProviders.CHAT_REQUESTS.size()))
                .as("the second turn's tries at the configured model").isNotEmpty()
                .allSatisfy(r -> assertThat(r).isEqualTo(FakeVoiceProviders.CHAT_REQUESTS.get(1)));
        assertThat(FakeVoiceProviders.FALLBACK_CHAT_REQUESTS).as("the same turn, then the rest of the call").hasSize(3);
        assertThat(FakeVoiceProviders.FALLBACK_CHAT_REQUESTS.getFirst().getJsonArray("messages"))
                .isEqualTo(FakeVoiceProviders.CHAT_REQUESTS.get(1).getJsonArray("messages"));
        assertThat(FakeVoiceProviders.FALLBACK_CHAT_REQUESTS.getFirst().getString("model")).isEqualTo("fallback-model");
        assertThat(call.run().getInt("usage_info.llm.'" + OPENAI + "'.total_tokens")).as("the first answer")
                .isEqualTo(60);
        assertThat(call.run().getInt("usage_info.llm.'openrouter/fallback-model'.total_tokens"))
                .as("the fallback's three answers").isEqualTo(180)
                .isEqualTo((int) FakeVoiceProviders.TOKENS_SENT.get("or-fallback").get());
    }

    // ---- hostile media ----

    /** A raw media socket to the call's address (frames of any size). */
    private WebSocket rawSocket(String url, CompletableFuture<String> closed) throws Exception {
        WebSocketClient client = vertx.createWebSocketClient(new WebSocketClientOptions()
                .setMaxFrameSize(32 * 1024 * 1024));
        clients.add(client);
        URI uri = URI.create(url);
        WebSocket socket = client.connect(new WebSocketConnectOptions().setHost(uri.getHost()).setPort(uri.getPort())
                .setURI(uri.getRawPath())).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        socket.closeHandler(v -> closed.complete(socket.closeStatusCode() + " " + socket.closeReason()));
        return socket;
    }

    @Test
    void aMediaSocketThatNeverSaysStartIsClosedAndItsRunEndsAsNotConnected() throws Exception {
        String url = calls.dial(workflow);
        CompletableFuture<String> closed = new CompletableFuture<>();
        WebSocket socket = rawSocket(url, closed);
        socket.writeTextMessage("{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}");

        assertThat(closed.get(20, TimeUnit.SECONDS)).isEqualTo("1000 system_connect_error");
        JsonPath run = calls.completedRun(workflow, TwilioCalls.runOf(url));
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("system_connect_error");
        assertThat(FakeVoiceProviders.STT_QUERIES).as("no session was started").isEmpty();
    }

    @Test
    void aSixteenMegabyteFrameClosesTheMediaSocketWith1009AndEndsTheCallAsAPipelineError() throws Exception {
        String url = calls.dial(workflow);
        CompletableFuture<String> closed = new CompletableFuture<>();
        WebSocket socket = rawSocket(url, closed);
        socket.writeTextMessage("{\"event\":\"connected\",\"protocol\":\"Call\",\"version\":\"1.0.0\"}");
        socket.writeTextMessage(new JsonObject().put("event", "start").put("sequenceNumber", "1")
                .put("streamSid", SimulatedCaller.STREAM_SID).put("start", new JsonObject()
                        .put("streamSid", SimulatedCaller.STREAM_SID).put("accountSid", TwilioCalls.SID)
                        .put("callSid", "CA1").put("tracks", List.of("inbound"))
                        .put("mediaFormat", new JsonObject().put("encoding", "audio/x-mulaw").put("sampleRate", 8000)
                                .put("channels", 1))).encode());
        CompletableFuture<Void> greeted = new CompletableFuture<>();
        socket.textMessageHandler(text -> {
            if (text.contains("\"media\"")) {
                greeted.complete(null);
            }
        });
        greeted.get(20, TimeUnit.SECONDS); // the call is up: the greeting plays
        socket.writeTextMessage("{\"event\":\"media\",\"media\":{\"payload\":\"" + "A".repeat(16 * 1024 * 1024)
                + "\"}}");

        // the service closes with 1009 as soon as the frame's size is known (CarrierMediaSocketTest sees that frame);
        // here the client is still writing its 16 MB when the connection goes, and the close frame can be lost under
        // the reset: the socket is closed either way, and the run says why
        assertThat(closed.get(30, TimeUnit.SECONDS)).isIn("1009 frame too big", "null null");
        JsonPath run = calls.completedRun(workflow, TwilioCalls.runOf(url));
        assertThat(run.getString("gathered_context.call_disposition")).isEqualTo("pipeline_error");
        assertThat(run.getString("gathered_context.error")).contains("media socket was closed", "frame too big");
    }
}
