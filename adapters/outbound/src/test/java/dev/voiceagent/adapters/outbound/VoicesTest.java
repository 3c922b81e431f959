package dev.voiceagent.adapters.outbound;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.model.Voice;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The voice catalogs of the text-to-speech providers that list their voices, against a local server that answers as
 * each provider does (the shapes of their documented answers) and records what it was asked: the path, the method, the
 * key in the provider's own header, the query. A refusal carries the provider's words; an unreachable provider says so;
 * a provider that needs the organization's key refuses without one.
 */
class VoicesTest {

    /** A request as the fake provider saw it. */
    record Seen(String method, String path, String query, Map<String, String> headers, String body) {
    }

    /** What the fake answers on a path (or a path with its query, first): a status and a body. */
    record Answer(int status, String body) {
    }

    private static final List<Seen> SEEN = new CopyOnWriteArrayList<>();
    private static final Map<String, Answer> ANSWERS = new ConcurrentHashMap<>();
    private static Vertx vertx;
    private static HttpServer server;
    private static String base;
    private static Voices voices;
    /** Its xAI is a port nobody listens on. */
    private static Voices unreachable;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        server = vertx.createHttpServer().requestHandler(VoicesTest::answer);
        server.listen(0, "127.0.0.1").toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        base = "http://127.0.0.1:" + server.actualPort();
        GuardedHttp http = new GuardedHttp(vertx, Optional.of(List.of("127.0.0.1")), Duration.ofSeconds(2));
        ProviderApis apis = new ProviderApis(base + "/v1", base, "v", base, base, base, "v")
                // the region is filled in where the real host takes it: here, the path's first segment
                .pointing("azure_speech", base + "/{region}")
                .pointing("google_tts", base)
                .pointing("rime_voices", base)
                .pointing("lmnt", base)
                .pointing("inworld", base)
                .pointing("minimax", base + "/v1")
                .pointing("xai", base + "/v1")
                .pointing("smallest", base)
                .pointing("camb", base + "/apis");
        voices = new Voices(http, apis);
        int closed;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closed = socket.getLocalPort();
        }
        unreachable = new Voices(http, new ProviderApis(base + "/v1", base, "v", base, base, base, "v")
                .pointing("xai", "http://127.0.0.1:" + closed + "/v1"));
    }

    @AfterAll
    static void stop() {
        vertx.close().toCompletionStage().toCompletableFuture().join();
    }

    @BeforeEach
    void clear() {
        SEEN.clear();
        ANSWERS.clear();
    }

    private static void answer(HttpServerRequest request) {
        request.body().onSuccess(body -> {
            Map<String, String> headers = new HashMap<>();
            request.headers().forEach(h -> headers.put(h.getKey().toLowerCase(), h.getValue()));
            SEEN.add(new Seen(request.method().name(), request.path(), request.query(), headers, body.toString()));
            Answer answer = ANSWERS.getOrDefault(request.uri(), ANSWERS.getOrDefault(request.path(),
                    new Answer(404, "{\"error\":\"no such path\"}")));
            request.response().setStatusCode(answer.status()).putHeader("Content-Type", "application/json")
                    .end(answer.body());
        });
    }

    private static ModelEndpoint endpoint(String provider, String key, Map<String, Object> settings) {
        return new ModelEndpoint(ModelService.TTS, provider, null, null, key == null ? List.of() : List.of(key),
                settings, false);
    }

    private static List<Voice> list(String provider, ModelEndpoint endpoint) {
        return voices.voices(provider, endpoint).await().atMost(Duration.ofSeconds(5)).orElseThrow();
    }

    private static Seen only() {
        assertThat(SEEN).hasSize(1);
        return SEEN.getFirst();
    }

    @Test
    void azureSpeechListsTheRegionsVoicesWithTheSubscriptionKey() {
        ANSWERS.put("/westeurope/cognitiveservices/voices/list", new Answer(200, """
                [{"Name":"Microsoft Server Speech Text to Speech Voice (en-US, AriaNeural)","DisplayName":"Aria",
                  "LocalName":"Aria","ShortName":"en-US-AriaNeural","Gender":"Female","Locale":"en-US",
                  "LocaleName":"English (United States)","StyleList":["chat","cheerful"],"SampleRateHertz":"24000",
                  "VoiceType":"Neural","Status":"GA","WordsPerMinute":"150"},
                 {"Name":"Microsoft Server Speech Text to Speech Voice (de-DE, ConradNeural)","DisplayName":"Conrad",
                  "LocalName":"Conrad","ShortName":"de-DE-ConradNeural","Gender":"Male","Locale":"de-DE",
                  "LocaleName":"German (Germany)","SampleRateHertz":"48000","VoiceType":"Neural","Status":"GA"}]
                """));

        List<Voice> listed = list("azure_speech", endpoint("azure_speech", "az-key", Map.of("region", "westeurope")));

        Seen seen = only();
        assertThat(seen.method()).isEqualTo("GET");
        assertThat(seen.headers()).containsEntry("ocp-apim-subscription-key", "az-key");
        assertThat(listed).containsExactly(
                new Voice("en-US-AriaNeural", "Aria", "English (United States)", null, "female", "en-US", null),
                new Voice("de-DE-ConradNeural", "Conrad", "German (Germany)", null, "male", "de-DE", null));
    }

    @Test
    void azureSpeechAsksEastUsWithoutARegionAndRefusesAnotherHost() {
        ANSWERS.put("/eastus/cognitiveservices/voices/list", new Answer(200, "[]"));

        assertThat(list("azure_speech", endpoint("azure_speech", "az-key", Map.of()))).isEmpty();
        assertThat(only().path()).isEqualTo("/eastus/cognitiveservices/voices/list");
        assertThatThrownBy(() -> list("azure_speech", endpoint("azure_speech", "az-key",
                Map.of("region", "evil.example/x")))).isInstanceOf(DomainRuleViolation.class)
                .hasMessageContaining("not the name of an Azure region");
    }

    @Test
    void googleListsTheLanguagesVoicesOfTheModelsFamilyWithTheApiKey() {
        ANSWERS.put("/v1/voices", new Answer(200, """
                {"voices":[
                  {"languageCodes":["en-GB"],"name":"en-GB-Chirp3-HD-Kore","ssmlGender":"FEMALE",
                   "naturalSampleRateHertz":24000},
                  {"languageCodes":["en-GB"],"name":"en-GB-Chirp3-HD-Charon","ssmlGender":"MALE",
                   "naturalSampleRateHertz":24000},
                  {"languageCodes":["en-GB"],"name":"en-GB-Neural2-A","ssmlGender":"FEMALE",
                   "naturalSampleRateHertz":24000},
                  {"languageCodes":["en-GB"],"name":"en-GB-Chirp-HD-D","ssmlGender":"MALE",
                   "naturalSampleRateHertz":24000},
                  {"languageCodes":["en-GB"],"name":"en-GB-Chirp3-HD-Sadachbia",
                   "ssmlGender":"SSML_VOICE_GENDER_UNSPECIFIED","naturalSampleRateHertz":24000}]}
                """));

        List<Voice> listed = list("google", endpoint("google", "goog-key", Map.of("model", "chirp_3_hd",
                "language", "en-GB")));

        Seen seen = only();
        assertThat(seen.method()).isEqualTo("GET");
        assertThat(seen.path()).isEqualTo("/v1/voices");
        assertThat(seen.query()).isEqualTo("languageCode=en-GB");
        assertThat(seen.headers()).containsEntry("x-goog-api-key", "goog-key");
        assertThat(listed).containsExactly(
                new Voice("en-GB-Chirp3-HD-Kore", "Kore", "Chirp3-HD", null, "female", "en-GB", null),
                new Voice("en-GB-Chirp3-HD-Charon", "Charon", "Chirp3-HD", null, "male", "en-GB", null),
                new Voice("en-GB-Chirp3-HD-Sadachbia", "Sadachbia", "Chirp3-HD", null, null, "en-GB", null));
    }

    @Test
    void googleWithoutAKeyListsTheDocumentedChirp3HdVoicesInTheLanguage() {
        List<Voice> listed = list("google", endpoint("google", null, Map.of("language", "fr-FR")));

        assertThat(SEEN).isEmpty();
        assertThat(listed).hasSize(30).contains(
                new Voice("fr-FR-Chirp3-HD-Charon", "Charon", "Chirp3-HD", null, "male", "fr-FR", null),
                new Voice("fr-FR-Chirp3-HD-Kore", "Kore", "Chirp3-HD", null, "female", "fr-FR", null));
        assertThatThrownBy(() -> list("google", endpoint("google", null, Map.of("model", "journey"))))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("API key");
    }

    @Test
    void rimeListsTheModelsSpeakersFromItsPublicCatalogWithoutTheKey() {
        ANSWERS.put("/data/voices/voice_details.json", new Answer(200, """
                [{"speaker":"astra","gender":"Female","age":"Young Adult","country":"US","dialect":"American",
                  "demographic":"White","genre":["Any"],"modelId":"coda","language":"English","lang":"eng",
                  "flagship":true},
                 {"speaker":"luna","gender":"Female","age":"Young Adult","country":"US","dialect":"American",
                  "demographic":"White","genre":["Any"],"modelId":"arcana","language":"English","lang":"eng",
                  "flagship":true},
                 {"speaker":"albion","gender":"Male","age":"Adult","country":"England","dialect":"English",
                  "demographic":"White","genre":["Any"],"modelId":"arcana","language":"German","lang":"ger",
                  "flagship":false},
                 {"speaker":"nova","gender":"Non-binary","age":"Adult","country":"US","dialect":"American",
                  "demographic":"","genre":["Any"],"modelId":"arcana","language":"English","lang":"eng",
                  "flagship":false},
                 {"speaker":"luna","gender":"Female","age":"Young Adult","country":"Spain","dialect":"Spanish",
                  "demographic":"White","genre":["Any"],"modelId":"arcana","language":"Spanish","lang":"spa",
                  "flagship":false}]
                """));

        List<Voice> listed = list("rime", endpoint("rime", "rime-key", Map.of("model", "arcana")));

        Seen seen = only();
        assertThat(seen.method()).isEqualTo("GET");
        assertThat(seen.path()).isEqualTo("/data/voices/voice_details.json");
        assertThat(seen.headers()).doesNotContainKey("authorization");
        assertThat(listed).containsExactly(
                new Voice("luna", "Luna", "Young Adult, US", "american", "female", "en", null),
                new Voice("albion", "Albion", "Adult, England", "english", "male", "de", null),
                new Voice("nova", "Nova", "Adult, US", "american", "neutral", "en", null));
    }

    @Test
    void lmntListsTheReadyVoicesWithTheKeyAndItsApiVersion() {
        ANSWERS.put("/v1/ai/voice/list", new Answer(200, """
                [{"id":"morgan","name":"Morgan","owner":"system","state":"ready","starred":false,"gender":"F",
                  "type":"professional","description":"UK. Young adult. Conversational",
                  "preview_url":"https://api.lmnt.com/v1/ai/voice/morgan/preview"},
                 {"id":"b8c5e6","name":"My clone","owner":"me","state":"training","gender":"M","type":"instant"},
                 {"id":"zeke","name":"Zeke","owner":"system","state":"ready","gender":"M","description":null}]
                """));

        List<Voice> listed = list("lmnt", endpoint("lmnt", "lmnt-key", Map.of()));

        Seen seen = only();
        assertThat(seen.method()).isEqualTo("GET");
        assertThat(seen.headers()).containsEntry("x-api-key", "lmnt-key").containsEntry("lmnt-version", "1.1");
        assertThat(listed).containsExactly(
                new Voice("morgan", "Morgan", "UK. Young adult. Conversational", null, "female", null,
                        "https://api.lmnt.com/v1/ai/voice/morgan/preview"),
                new Voice("zeke", "Zeke", null, null, "male", null, null));
    }

    @Test
    void inworldListsEveryPageWithTheBasicKey() {
        // the first page's answer names the next page; the fake answers both on one path, by the token asked for
        ANSWERS.put("/voices/v1/voices", new Answer(200, """
                {"voices":[{"voiceId":"Ashley","displayName":"Ashley","langCode":"EN_US",
                  "description":"A warm, natural female voice","tags":["female","warm"],"source":"SYSTEM"}],
                 "nextPageToken":"page 2"}
                """));
        ANSWERS.put("/voices/v1/voices?pageToken=page+2", new Answer(200, """
                {"voices":[{"voiceId":"workspace__hugo","displayName":"Hugo","langCode":"FR_FR","gender":"male",
                  "description":"Cloned","tags":[],"source":"IVC"}]}
                """));

        List<Voice> listed = list("inworld", endpoint("inworld", "aW53b3JsZA==", Map.of()));

        assertThat(SEEN).hasSize(2);
        assertThat(SEEN).allSatisfy(seen -> assertThat(seen.headers()).containsEntry("authorization",
                "Basic aW53b3JsZA=="));
        assertThat(SEEN.get(0).query()).isNull();
        assertThat(SEEN.get(1).query()).isEqualTo("pageToken=page+2");
        assertThat(listed).containsExactly(
                new Voice("Ashley", "Ashley", "A warm, natural female voice", null, "female", "en-US", null),
                new Voice("workspace__hugo", "Hugo", "Cloned", null, "male", "fr-FR", null));
    }

    @Test
    void aRefusalCarriesTheProvidersWords() {
        ANSWERS.put("/v1/ai/voice/list", new Answer(401, "{\"error\":\"Invalid API key\"}"));

        assertThatThrownBy(() -> list("lmnt", endpoint("lmnt", "wrong", Map.of())))
                .isInstanceOf(UpstreamServiceException.class).hasMessage("LMNT answered 401: Invalid API key");
    }

    @Test
    void aProviderThatListsWithTheOrganizationsKeyRefusesWithoutOne() {
        assertThatThrownBy(() -> list("inworld", null)).isInstanceOf(DomainRuleViolation.class)
                .hasMessageContaining("Inworld key");
        assertThatThrownBy(() -> list("lmnt", endpoint("lmnt", null, Map.of())))
                .isInstanceOf(DomainRuleViolation.class).hasMessageContaining("LMNT key");
        assertThat(SEEN).isEmpty();
    }

    @Test
    void miniMaxListsEveryKindOfVoiceWithAPost() {
        ANSWERS.put("/v1/get_voice", new Answer(200, """
                {"system_voice":[
                  {"voice_id":"English_Graceful_Lady","voice_name":"Graceful Lady",
                   "description":["A graceful, elegant female voice.","Narration"],"created_time":"1970-01-01"},
                  {"voice_id":"Chinese (Mandarin)_Reliable_Executive","voice_name":"Reliable Executive",
                   "description":["A steady male executive."]}],
                 "voice_cloning":[{"voice_id":"MyVoice001","description":[],"created_time":"2025-06-01"}],
                 "voice_generation":[],
                 "base_resp":{"status_code":0,"status_msg":"success"}}
                """));

        List<Voice> listed = list("minimax", endpoint("minimax", "mm-key", Map.of("group_id", "123")));

        Seen seen = only();
        assertThat(seen.method()).isEqualTo("POST");
        assertThat(seen.path()).isEqualTo("/v1/get_voice");
        assertThat(seen.headers()).containsEntry("authorization", "Bearer mm-key")
                .containsEntry("content-type", "application/json");
        assertThat(new JsonObject(seen.body())).isEqualTo(new JsonObject().put("voice_type", "all"));
        assertThat(listed).containsExactly(
                new Voice("English_Graceful_Lady", "Graceful Lady", "A graceful, elegant female voice., Narration",
                        null, null, "en", null),
                new Voice("Chinese (Mandarin)_Reliable_Executive", "Reliable Executive", "A steady male executive.",
                        null, null, "zh", null),
                new Voice("MyVoice001", "MyVoice001", null, null, null, null, null));
    }

    @Test
    void miniMaxsRefusalUnderHttp200CarriesItsWords() {
        ANSWERS.put("/v1/get_voice", new Answer(200, """
                {"base_resp":{"status_code":1004,"status_msg":"authorization failed, please check your api key"}}
                """));

        assertThatThrownBy(() -> list("minimax", endpoint("minimax", "wrong", Map.of())))
                .isInstanceOf(UpstreamServiceException.class)
                .hasMessage("MiniMax answered 1004: authorization failed, please check your api key");
    }

    @Test
    void xaiListsItsVoicesWithTheBearerKey() {
        ANSWERS.put("/v1/tts/voices", new Answer(200, """
                {"voices":[{"voice_id":"eve","name":"Eve"},{"voice_id":"rex","name":"Rex"}]}
                """));

        List<Voice> listed = list("xai", endpoint("xai", "xai-key", Map.of()));

        Seen seen = only();
        assertThat(seen.method()).isEqualTo("GET");
        assertThat(seen.headers()).containsEntry("authorization", "Bearer xai-key");
        assertThat(listed).containsExactly(new Voice("eve", "Eve", null, null, null, null, null),
                new Voice("rex", "Rex", null, null, null, null, null));
    }

    @Test
    void smallestListsTheConfiguredModelsPool() {
        ANSWERS.put("/waves/v1/lightning-v3.1-pro/get_voices", new Answer(200, """
                {"voices":[{"voiceId":"meher","displayName":"Meher","tags":{"language":["hindi","english"],
                   "accent":"indian","gender":"female","age":"young","emotions":[],"usecases":["conversational"]}},
                  {"voiceId":"raghav","displayName":"Raghav","tags":{"language":["english"],"accent":"Indian",
                   "gender":"male","age":"middle aged","emotions":[],"usecases":[]}}]}
                """));

        List<Voice> listed = list("smallest", endpoint("smallest", "sk_key", Map.of("model", "lightning_v3.1_pro")));

        Seen seen = only();
        assertThat(seen.method()).isEqualTo("GET");
        assertThat(seen.headers()).containsEntry("authorization", "Bearer sk_key");
        assertThat(listed).containsExactly(
                new Voice("meher", "Meher", "young, conversational", "indian", "female", "hi", null),
                new Voice("raghav", "Raghav", "middle aged", "indian", "male", "en", null));
    }

    @Test
    void cambListsItsVoicesWithTheApiKey() {
        ANSWERS.put("/apis/list-voices", new Answer(200, """
                [{"id":147320,"voice_name":"Alice","gender":2,"age":30,"language":1,"description":"Calm",
                  "is_published":true},
                 {"id":12345,"voice_name":"Bob","gender":1,"age":null,"language":1,"description":null},
                 {"id":999,"voice_name":"Narrator","gender":9}]
                """));

        List<Voice> listed = list("camb", endpoint("camb", "camb-key", Map.of()));

        Seen seen = only();
        assertThat(seen.method()).isEqualTo("GET");
        assertThat(seen.headers()).containsEntry("x-api-key", "camb-key");
        assertThat(listed).containsExactly(new Voice("147320", "Alice", "Calm", null, "female", null, null),
                new Voice("12345", "Bob", null, null, "male", null, null),
                new Voice("999", "Narrator", null, null, null, null, null));
    }

    @Test
    void anUnreachableProviderSaysSo() {
        assertThatThrownBy(() -> unreachable.voices("xai", endpoint("xai", "xai-key", Map.of())).await()
                .atMost(Duration.ofSeconds(5))).isInstanceOf(UpstreamServiceException.class)
                .hasMessageStartingWith("xAI: Could not reach 127.0.0.1");
    }

    @Test
    void sarvamListsTheConfiguredModelsDocumentedSpeakersWithoutACall() {
        List<Voice> v3 = list("sarvam", endpoint("sarvam", "sarvam-key", Map.of("model", "bulbul:v3")));
        List<Voice> v2 = list("sarvam", endpoint("sarvam", "sarvam-key", Map.of()));
        List<Voice> both = list("sarvam", null);

        assertThat(SEEN).isEmpty();
        assertThat(v3).hasSize(39).first().isEqualTo(new Voice("shubh", "Shubh", "bulbul:v3 speaker", null, null,
                null, null));
        assertThat(v2).hasSize(7).contains(new Voice("anushka", "Anushka", "bulbul:v2 speaker", null, "female", null,
                null), new Voice("hitesh", "Hitesh", "bulbul:v2 speaker", null, "male", null, null));
        assertThat(both).hasSize(46).containsAll(v2).containsAll(v3);
        assertThat(list("sarvam", endpoint("sarvam", "sarvam-key", Map.of("model", "bulbul:v9")))).isEmpty();
    }
}
