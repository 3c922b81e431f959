package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeModelProviders;
import dev.voiceagent.deploy.support.FakeModelProviders.Behaviour;
import dev.voiceagent.deploy.support.FakeModelProviders.Received;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The provider checks (GET /user/configurations/user/validate) and voice catalogs against a local server
 * that answers like each provider: what is sent (method, path, auth header), and what a success, a refused
 * key and a time-out become. Also the address guard on a tenant's base URL.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeModelProviders.class)
class ModelProvidersEndToEndTest {

    private String key;

    @BeforeEach
    void organization() {
        FakeModelProviders.reset();
        key = Api.createKey(Api.signUp("models"), "k");
    }

    private RequestSpecification as() {
        return given().header("X-API-Key", key).contentType(ContentType.JSON);
    }

    private void configure(Map<String, Object> llm, Map<String, Object> tts, Map<String, Object> stt) {
        as().body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline",
                Map.of("llm", llm, "tts", tts, "stt", stt)))).put("/api/v1/organizations/model-configurations/v2")
                .then().statusCode(200);
    }

    private Map<String, Object> openAiCompatible(String apiKey) {
        return Map.of("provider", "openai", "api_key", apiKey, "model", "llama-3.1-8b",
                "base_url", FakeModelProviders.base + "/v1");
    }

    private static List<Received> at(String path) {
        return FakeModelProviders.REQUESTS.stream().filter(r -> r.path().equals(path)).toList();
    }

    @Test
    void everyConfiguredKeyIsCheckedWithItsProviderAndAllOkIsTheReferencesAnswer() {
        configure(openAiCompatible("sk-local-1234"), Map.of("provider", "elevenlabs", "api_key", "xi-key-5678"),
                Map.of("provider", "deepgram", "api_key", "dg-key-9012"));

        as().get("/api/v1/user/configurations/user/validate").then().statusCode(200)
                .body("status[0].model", org.hamcrest.Matchers.equalTo("all"))
                .body("status[0].message", org.hamcrest.Matchers.equalTo("ok"));

        Received models = at("/v1/models").getFirst();
        assertThat(models.method()).isEqualTo("GET");
        assertThat(models.header("Authorization")).isEqualTo("Bearer sk-local-1234");
        Received elevenlabs = at("/v1/user").getFirst();
        assertThat(elevenlabs.method()).isEqualTo("GET");
        assertThat(elevenlabs.header("xi-api-key")).isEqualTo("xi-key-5678");
        Received deepgram = at("/v1/projects").getFirst();
        assertThat(deepgram.method()).isEqualTo("GET");
        assertThat(deepgram.header("Authorization")).isEqualTo("Token dg-key-9012");
    }

    @Test
    void aValidConfigurationIsTrustedForItsValidityAndAChangedOneIsAskedAgain() {
        configure(openAiCompatible("sk-local-1234"), Map.of("provider", "deepgram", "api_key", "dg-1"),
                Map.of("provider", "deepgram", "api_key", "dg-1"));
        as().get("/api/v1/user/configurations/user/validate").then().statusCode(200);
        as().get("/api/v1/user/configurations/user/validate?validity_ttl_seconds=60").then().statusCode(200);
        assertThat(at("/v1/models")).hasSize(1);
        as().get("/api/v1/user/configurations/user/validate?validity_ttl_seconds=0").then().statusCode(200);
        assertThat(at("/v1/models")).hasSize(2);

        configure(openAiCompatible("sk-rotated-5678"), Map.of("provider", "deepgram", "api_key", "dg-1"),
                Map.of("provider", "deepgram", "api_key", "dg-1"));
        FakeModelProviders.behaviour = Behaviour.REFUSE;
        as().get("/api/v1/user/configurations/user/validate").then().statusCode(422);
        as().get("/api/v1/user/configurations/user/validate").then().statusCode(422); // a failure is always asked
        assertThat(at("/v1/models")).hasSize(4);
        assertThat(at("/v1/models").getLast().header("Authorization")).isEqualTo("Bearer sk-rotated-5678");
    }

    @Test
    void managedModelsAreTheInstallationsEndpointCalledWithTheInstallationsKey() {
        JsonPath saved = as().body(Map.of("version", 2, "mode", "dograh", "dograh", Map.of("api_key",
                "mps-org-key-1234"))).put("/api/v1/organizations/model-configurations/v2").then().statusCode(200)
                .extract().jsonPath();
        assertThat(saved.getString("effective_configuration.llm.provider")).isEqualTo("dograh");
        as().get("/api/v1/user/configurations/user/validate").then().statusCode(200);
        List<Received> managed = at("/managed/v1/models");
        assertThat(managed).isNotEmpty().allSatisfy(r -> assertThat(r.header("Authorization"))
                .isEqualTo("Bearer " + FakeModelProviders.INSTALLATION_KEY));
        assertThat(FakeModelProviders.REQUESTS).allSatisfy(r -> assertThat(r.path()).startsWith("/managed/"));
        // the dashboard's editor asks for the managed provider's voices: the managed endpoint's (OpenAI's) voices
        JsonPath voices = as().get("/api/v1/user/configurations/voices/dograh").then().statusCode(200).extract()
                .jsonPath();
        assertThat(voices.getString("provider")).isEqualTo("dograh");
        assertThat(voices.getList("voices.voice_id", String.class)).contains("alloy", "coral");
    }

    @Test
    void aCartesiaKeyIsCheckedWithItsVersionHeader() {
        configure(openAiCompatible("sk-local-1234"), Map.of("provider", "cartesia", "api_key", "ca-key-3456"),
                Map.of("provider", "deepgram", "api_key", "dg-key-3456"));
        as().get("/api/v1/user/configurations/user/validate").then().statusCode(200);
        List<Received> cartesia = at("/voices");
        assertThat(cartesia).isNotEmpty().allSatisfy(r -> {
            assertThat(r.method()).isEqualTo("GET");
            assertThat(r.header("Authorization")).isEqualTo("Bearer ca-key-3456");
            assertThat(r.header("Cartesia-Version")).isEqualTo("2025-04-16");
        });
    }

    @Test
    void aRefusedKeyIsReportedPerServiceWithTheProvidersOwnWords() {
        configure(openAiCompatible("sk-wrong-0000"), Map.of("provider", "elevenlabs", "api_key", "xi-wrong"),
                Map.of("provider", "deepgram", "api_key", "dg-wrong"));
        FakeModelProviders.behaviour = Behaviour.REFUSE;

        JsonPath refused = as().get("/api/v1/user/configurations/user/validate").then().statusCode(422)
                .extract().jsonPath();
        Map<String, String> byService = Map.of(
                refused.getString("detail[0].model"), refused.getString("detail[0].message"),
                refused.getString("detail[1].model"), refused.getString("detail[1].message"),
                refused.getString("detail[2].model"), refused.getString("detail[2].message"));
        assertThat(byService.get("llm")).contains("Invalid OpenAI API key").contains("Incorrect API key provided");
        assertThat(byService.get("tts")).contains("Invalid ElevenLabs API key").contains("Invalid API key");
        assertThat(byService.get("stt")).contains("Invalid Deepgram API key").contains("Invalid credentials.");
        assertThat(refused.getList("detail.collect { it.loc[0] }", String.class)).containsOnly("configuration");
        assertThat(refused.getList("detail.type", String.class)).containsOnly("provider_check_failed");
    }

    @Test
    void aProviderThatDoesNotAnswerInTimeIsReportedNotWaitedFor() {
        configure(openAiCompatible("sk-local-1234"), Map.of("provider", "deepgram", "api_key", "dg-1"),
                Map.of("provider", "deepgram", "api_key", "dg-1"));
        FakeModelProviders.behaviour = Behaviour.SLOW;
        long started = System.nanoTime();
        JsonPath slow = as().get("/api/v1/user/configurations/user/validate").then().statusCode(422)
                .extract().jsonPath();
        long tookMs = (System.nanoTime() - started) / 1_000_000;
        assertThat(slow.getList("detail.message", String.class)).anySatisfy(m -> assertThat(m).contains("timed out"));
        // the checks run side by side: one time limit (2 s in tests), not one per service
        assertThat(tookMs).isLessThan(3_900);
    }

    @Test
    void aTenantsBaseUrlOnAPrivateOrMetadataAddressIsRefusedWithoutAnyRequest() {
        // 127.0.0.1 is allowed in tests (the fake providers listen there); ::1 is not
        for (String target : List.of("http://10.1.2.3/v1", "http://169.254.169.254/latest", "http://[::1]:8080/v1",
                "http://100.64.0.1/v1", "http://[fd00::1]/v1")) {
            FakeModelProviders.reset();
            configure(Map.of("provider", "openai", "api_key", "sk-1", "base_url", target),
                    Map.of("provider", "deepgram", "api_key", "dg-1"), Map.of("provider", "deepgram", "api_key", "dg-1"));
            String llm = as().get("/api/v1/user/configurations/user/validate").then().statusCode(422).extract()
                    .jsonPath().getString("detail.find { it.model == 'llm' }.message");
            assertThat(llm).as(target).contains("not allowed");
            assertThat(at("/v1/models")).as(target).isEmpty();
        }
        String metadata = as().body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline",
                Map.of("llm", Map.of("provider", "openai", "api_key", "sk-1", "base_url", "http://169.254.169.254/v1"),
                        "tts", Map.of("provider", "deepgram", "api_key", "dg-1"),
                        "stt", Map.of("provider", "deepgram", "api_key", "dg-1")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200).extract().asString();
        assertThat(metadata).contains("169.254.169.254"); // stored as given: it is refused when used, on every use
        String refusal = as().get("/api/v1/user/configurations/user/validate").then().statusCode(422).extract()
                .jsonPath().getString("detail.find { it.model == 'llm' }.message");
        assertThat(refusal).contains("169.254.169.254").contains("not allowed");
    }

    @Test
    void aMaskedKeySentBackIsTheStoredKeyWhenTheProviderIsAsked() {
        configure(openAiCompatible("sk-original-secret-4321"), Map.of("provider", "deepgram", "api_key", "dg-1"),
                Map.of("provider", "deepgram", "api_key", "dg-1"));
        Map<String, Object> shown = as().get("/api/v1/organizations/model-configurations/v2").then().statusCode(200)
                .extract().jsonPath().getMap("configuration");
        assertThat(shown.toString()).doesNotContain("sk-original-secret").contains("4321");
        as().body(shown).put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);

        as().get("/api/v1/user/configurations/user/validate").then().statusCode(200);
        assertThat(at("/v1/models").getFirst().header("Authorization")).isEqualTo("Bearer sk-original-secret-4321");
    }

    @Test
    void elevenLabsVoicesComeLiveWithTheOrganizationsKeyAndAreKeptAFewMinutes() {
        configure(openAiCompatible("sk-1"), Map.of("provider", "elevenlabs", "api_key", "xi-voices-1111"),
                Map.of("provider", "deepgram", "api_key", "dg-1"));
        JsonPath voices = as().get("/api/v1/user/configurations/voices/elevenlabs").then().statusCode(200).extract()
                .jsonPath();
        assertThat(voices.getString("provider")).isEqualTo("elevenlabs");
        assertThat(voices.getList("voices.voice_id")).containsExactly("21m00Tcm4TlvDq8ikWAM", "pNInz6obpgDQGcFmaJgB");
        assertThat(voices.getString("voices[0].accent")).isEqualTo("american");
        assertThat(voices.getString("voices[0].language")).isEqualTo("en");
        assertThat(voices.getString("voices[0].preview_url")).isEqualTo("https://storage.example/rachel.mp3");
        assertThat(voices.getList("facets.genders")).containsExactly("female", "male");
        Received request = at("/v1/voices").getFirst();
        assertThat(request.method()).isEqualTo("GET");
        assertThat(request.header("xi-api-key")).isEqualTo("xi-voices-1111");

        // filtered from the kept catalog: no second request
        as().get("/api/v1/user/configurations/voices/elevenlabs?gender=male").then().statusCode(200)
                .body("voices.name", org.hamcrest.Matchers.contains("Adam"));
        assertThat(at("/v1/voices")).hasSize(1);
    }

    @Test
    void cartesiaVoicesComeLiveAndAProviderFailureIsA502WithItsMessage() {
        configure(openAiCompatible("sk-1"), Map.of("provider", "cartesia", "api_key", "ca-1"),
                Map.of("provider", "deepgram", "api_key", "dg-1"));
        as().get("/api/v1/user/configurations/voices/cartesia").then().statusCode(200)
                .body("voices[0].voice_id", org.hamcrest.Matchers.equalTo("3faa81ae-d3d8-4ab1-9e44-e50e46d33c30"))
                .body("voices[0].gender", org.hamcrest.Matchers.equalTo("feminine"));
        assertThat(at("/voices").getFirst().header("Cartesia-Version")).isEqualTo("2025-04-16");

        String other = Api.createKey(Api.signUp("models-refused"), "k");
        given().header("X-API-Key", other).contentType(ContentType.JSON).body(Map.of("version", 2, "mode", "byok",
                "byok", Map.of("mode", "pipeline", "pipeline", Map.of("llm", openAiCompatible("sk-1"),
                        "tts", Map.of("provider", "elevenlabs", "api_key", "xi-bad"),
                        "stt", Map.of("provider", "deepgram", "api_key", "dg-1")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        FakeModelProviders.behaviour = Behaviour.REFUSE;
        given().header("X-API-Key", other).get("/api/v1/user/configurations/voices/elevenlabs").then().statusCode(502)
                .body("detail", org.hamcrest.Matchers.containsString("ElevenLabs answered 401: Invalid API key"));
    }

    @Test
    void aTextChatTalksToTheOrganizationsOpenAICompatibleModelAndAFailedTurnChangesNothing() {
        configure(openAiCompatible("sk-chat-1234"), Map.of("provider", "deepgram", "api_key", "dg-1"),
                Map.of("provider", "deepgram", "api_key", "dg-1"));
        long workflow = TextChatEndToEndTest.createWorkflow(key, TextChatEndToEndTest.bookingAgent(), null);
        String sessions = "/api/v1/workflow/" + workflow + "/text-chat/sessions";
        long run = as().body(Map.of("initial_context", Map.of("first_name", "Ann", "company", "Acme Dental")))
                .post(sessions).then().statusCode(200).extract().jsonPath().getLong("workflow_run_id");
        assertThat(at("/v1/chat/completions")).isEmpty(); // the opening turn is the greeting

        JsonPath answered = as().body(Map.of("text", "I'd like an appointment")).post(sessions + "/" + run + "/messages")
                .then().statusCode(200).extract().jsonPath();
        List<Received> chat = at("/v1/chat/completions");
        assertThat(chat).hasSize(2);
        io.vertx.core.json.JsonObject first = new io.vertx.core.json.JsonObject(chat.getFirst().body());
        assertThat(chat.getFirst().method()).isEqualTo("POST");
        assertThat(chat.getFirst().header("Authorization")).isEqualTo("Bearer sk-chat-1234");
        assertThat(first.getString("model")).isEqualTo("llama-3.1-8b");
        assertThat(first.getJsonArray("messages").getJsonObject(0).getString("content"))
                .isEqualTo("You book dental appointments for Acme Dental.");
        assertThat(first.getJsonArray("messages").getJsonObject(1).getString("content"))
                .isEqualTo("Hello Ann, this is Acme Dental.");
        assertThat(first.getJsonArray("messages").getJsonObject(2).getString("content")).isEqualTo("I'd like an appointment");
        assertThat(first.getJsonArray("tools").getJsonObject(0).getJsonObject("function").getString("name"))
                .isEqualTo("book");
        // the model called "book": the second request is the Booking node's, with the call and its result
        io.vertx.core.json.JsonObject second = new io.vertx.core.json.JsonObject(chat.get(1).body());
        assertThat(second.getJsonArray("messages").getJsonObject(0).getString("content"))
                .startsWith("Ask which day suits them.");
        assertThat(second.getJsonArray("messages").getJsonObject(3).getJsonArray("tool_calls").getJsonObject(0)
                .getString("id")).isEqualTo("call_fake");
        assertThat(second.getJsonArray("messages").getJsonObject(4).getString("role")).isEqualTo("tool");
        assertThat(answered.getString("session_data.turns[1].node_id")).isEqualTo("booking");
        assertThat(answered.getString("session_data.turns[1].assistant_message.text"))
                .isEqualTo("Fake model answer to 5 messages");
        assertThat(answered.getLong("session_data.turns[1].usage.total_tokens")).isEqualTo(98);

        FakeModelProviders.behaviour = Behaviour.FAIL;
        as().body(Map.of("text", "Tuesday")).post(sessions + "/" + run + "/messages").then().statusCode(502)
                .body("detail", org.hamcrest.Matchers.equalTo("The language model failed: OpenAI answered 500: The server"
                        + " had an error while processing your request"));
        JsonPath after = as().get(sessions + "/" + run).then().statusCode(200).extract().jsonPath();
        assertThat(after.getInt("revision")).isEqualTo(1);
        assertThat(after.getList("session_data.turns")).hasSize(2);
        FakeModelProviders.behaviour = Behaviour.OK;
        as().body(Map.of("text", "Tuesday", "expected_revision", 1)).post(sessions + "/" + run + "/messages").then()
                .statusCode(200).body("revision", org.hamcrest.Matchers.equalTo(2));
    }

    @Test
    void documentedCatalogsNeedNoKeyAndAnUnknownProviderIs404() {
        as().get("/api/v1/user/configurations/voices/openai").then().statusCode(200)
                .body("voices.voice_id", org.hamcrest.Matchers.hasItems("alloy", "shimmer"));
        as().get("/api/v1/user/configurations/voices/deepgram?q=thalia").then().statusCode(200)
                .body("voices.voice_id", org.hamcrest.Matchers.contains("aura-2-thalia-en"));
        as().get("/api/v1/user/configurations/voices/acme").then().statusCode(404);
        // before the organization's ElevenLabs key is saved: ElevenLabs' premade voices, as the reference lists them
        as().get("/api/v1/user/configurations/voices/elevenlabs?gender=female").then().statusCode(200)
                .body("voices.voice_id", org.hamcrest.Matchers.hasItems("21m00Tcm4TlvDq8ikWAM",
                        "EXAVITQu4vr4xnSDxMaL"))
                .body("voices.gender", org.hamcrest.Matchers.everyItem(org.hamcrest.Matchers.equalTo("female")));
        as().get("/api/v1/user/configurations/voices/cartesia").then().statusCode(400)
                .body("detail", org.hamcrest.Matchers.containsString("Cartesia key"));
        assertThat(FakeModelProviders.REQUESTS).isEmpty();
    }
}
