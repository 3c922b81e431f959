package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import dev.voiceagent.application.model.ModelConfigurationRepository;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The organization's model configuration (v2), the user's legacy one (v1), the migration between them,
 * the defaults, the pricing and the organization context, with two organizations.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ModelConfigurationEndToEndTest {

    private static final String V2 = "/api/v1/organizations/model-configurations/v2";

    @Inject
    AgroalDataSource dataSource;

    @Inject
    ModelConfigurationRepository repository;

    private static RequestSpecification as(String key) {
        return given().header("X-API-Key", key).contentType(ContentType.JSON);
    }

    static Map<String, Object> pipeline(Map<String, Object> llm, Map<String, Object> tts, Map<String, Object> stt) {
        return Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline",
                Map.of("llm", llm, "tts", tts, "stt", stt)));
    }

    private static Map<String, Object> ownModels() {
        return pipeline(Map.of("provider", "openai", "api_key", "sk-proj-abcdefgh12345678", "model", "gpt-4.1-mini",
                        "base_url", "https://llm.example.com/v1"),
                Map.of("provider", "elevenlabs", "api_key", "xi-elevenlabs-key-9876", "speed", 1.1),
                Map.of("provider", "deepgram", "api_key", "dg-deepgram-key-5555"));
    }

    @Test
    void aConfigurationIsStoredSealedShownMaskedAndSeenByItsOrganizationOnly() {
        Api.Account a = Api.signUp("models-a");
        String keyA = Api.createKey(a, "k");
        String keyB = Api.createKey(Api.signUp("models-b"), "k");
        as(keyA).get(V2).then().statusCode(200).body("configuration", nullValue()).body("source", equalTo("empty"));

        JsonPath saved = as(keyA).body(ownModels()).put(V2).then().statusCode(200).extract().jsonPath();
        assertThat(saved.getString("source")).isEqualTo("organization_v2");
        assertThat(saved.getString("configuration.byok.pipeline.llm.api_key")).isEqualTo("*".repeat(20) + "5678")
                .hasSize("sk-proj-abcdefgh12345678".length());
        assertThat(saved.getString("configuration.byok.pipeline.llm.base_url")).isEqualTo("https://llm.example.com/v1");
        // defaults filled in where the body said nothing
        assertThat(saved.getString("effective_configuration.tts.model")).isEqualTo("eleven_flash_v2_5");
        assertThat(saved.getDouble("effective_configuration.tts.speed")).isEqualTo(1.1);
        assertThat(saved.prettify()).doesNotContain("sk-proj-abcdefgh").doesNotContain("xi-elevenlabs-key")
                .doesNotContain("dg-deepgram-key");

        String row = new Sql(dataSource).queryString("SELECT row_to_json(c)::text FROM organization_model_configurations c"
                + " WHERE organization_id = ?", a.organizationId());
        assertThat(row).doesNotContain("sk-proj").doesNotContain("elevenlabs").doesNotContain("gpt-4.1-mini");
        assertThat(stored(a).toString()).contains("sk-proj-abcdefgh12345678");

        as(keyB).get(V2).then().statusCode(200).body("configuration", nullValue()).body("source", equalTo("empty"));
        as(keyB).get("/api/v1/user/configurations/user").then().statusCode(200).body("llm", nullValue());
    }

    @Test
    void maskedSecretsSentBackKeepTheStoredOnesAndAMaskedValueForAnotherProviderIsRefused() {
        Api.Account a = Api.signUp("models-masked");
        String key = Api.createKey(a, "k");
        Map<String, Object> shown = as(key).body(ownModels()).put(V2).then().statusCode(200).extract().jsonPath()
                .getMap("configuration");
        as(key).body(shown).put(V2).then().statusCode(200);
        assertThat(stored(a).toString()).contains("sk-proj-abcdefgh12345678", "xi-elevenlabs-key-9876",
                "dg-deepgram-key-5555");

        // the masked LLM key sent with another provider matches nothing stored for it: refused, nothing changes
        as(key).body(pipeline(Map.of("provider", "groq", "api_key", "****************5678"),
                        Map.of("provider", "elevenlabs", "api_key", "xi-new-key"),
                        Map.of("provider", "deepgram", "api_key", "dg-deepgram-key-5555")))
                .put(V2).then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "byok", "pipeline", "llm",
                        "api_key"))).body("detail[0].type", equalTo("masked_secret"));
        assertThat(stored(a).toString()).contains("sk-proj-abcdefgh12345678", "xi-elevenlabs-key-9876")
                .doesNotContain("xi-new-key");
    }

    @Test
    void everyFieldIsCheckedAgainstItsProvidersSchemaWithTheFieldsLoc() {
        String key = Api.createKey(Api.signUp("models-422"), "k");
        Map<String, Object> tts = Map.of("provider", "deepgram", "api_key", "dg-1");
        Map<String, Object> stt = Map.of("provider", "deepgram", "api_key", "dg-2");
        List<Object> llm = List.of("body", "byok", "pipeline", "llm");
        refused(key, pipeline(Map.of("provider", "acme", "api_key", "k"), tts, stt), append(llm, "provider"));
        refused(key, pipeline(Map.of("provider", "openai"), tts, stt), append(llm, "api_key"));
        refused(key, pipeline(Map.of("provider", "openai", "api_key", "k"), Map.of("provider", "elevenlabs",
                "api_key", "k", "speed", 5.0), stt), List.of("body", "byok", "pipeline", "tts", "speed"));
        // within the catalog's 0.1-2.0 but outside what ElevenLabs speaks: refused, not clamped on every call
        refused(key, pipeline(Map.of("provider", "openai", "api_key", "k"), Map.of("provider", "elevenlabs",
                "api_key", "k", "speed", 1.5), stt), List.of("body", "byok", "pipeline", "tts", "speed"));
        refused(key, pipeline(Map.of("provider", "minimax", "api_key", "k", "temperature", 3.5), tts, stt),
                append(llm, "temperature"));
        refused(key, Map.of("version", 2, "mode", "cloud"), List.of("body", "mode"));
        refused(key, Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline",
                Map.of("llm", Map.of("provider", "openai", "api_key", "k"), "tts", tts))), List.of("body", "byok",
                "pipeline", "stt"));
        refused(key, Map.of("version", 2, "mode", "dograh", "dograh", Map.of("api_key", "k", "speed", 0.1)),
                List.of("body", "dograh", "speed"));
        as(key).get(V2).then().statusCode(200).body("source", equalTo("empty"));
    }

    @Test
    void aSpeechProviderTheVoiceRuntimeCannotUseIsRefusedWhenSavedAtItsField() {
        String key = Api.createKey(Api.signUp("models-voice"), "k");
        Map<String, Object> llm = Map.of("provider", "openai", "api_key", "k");
        Map<String, Object> tts = Map.of("provider", "cartesia", "api_key", "ca-1");
        Map<String, Object> stt = Map.of("provider", "deepgram", "api_key", "dg-2");
        var refused = as(key).body(pipeline(llm, tts, Map.of("provider", "huggingface", "api_key", "hf_1"))).put(V2)
                .then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "byok", "pipeline", "stt", "provider")))
                .body("detail[0].type", equalTo("voice_runtime_unsupported")).extract().jsonPath();
        assertThat(refused.getString("detail[0].msg")).contains("cannot use huggingface for speech-to-text",
                "does not stream", "deepgram", "assemblyai", "google", "gladia");
        as(key).body(Map.of("stt", Map.of("provider", "huggingface", "api_key", "hf_1")))
                .put("/api/v1/user/configurations/user")
                .then().statusCode(422).body("detail[0].loc", equalTo(List.of("body", "stt", "provider")));
        as(key).get(V2).then().statusCode(200).body("source", equalTo("empty"));
        as(key).body(pipeline(llm, tts, Map.of("provider", "deepgram", "api_key", "dg-2", "model",
                "flux-general-en"))).put(V2).then().statusCode(200); // Flux listens on calls too
        // what the runtime speaks and hears with is saved: Cartesia, OpenAI transcription, self-hosted servers
        as(key).body(pipeline(llm, tts, stt)).put(V2).then().statusCode(200);
        as(key).body(pipeline(llm, tts, Map.of("provider", "openai", "api_key", "sk-stt"))).put(V2).then()
                .statusCode(200);
        as(key).body(pipeline(llm, tts, Map.of("provider", "assemblyai", "api_key", "aa-1"))).put(V2).then()
                .statusCode(200); // AssemblyAI's streaming listens on calls
        as(key).body(pipeline(llm, Map.of("provider", "speaches", "base_url", "http://tts.internal:8000/v1"),
                Map.of("provider", "speaches", "base_url", "http://stt.internal:8000/v1"))).put(V2).then()
                .statusCode(200);
    }

    private static void refused(String key, Map<String, Object> body, List<Object> loc) {
        List<List<Object>> locs = as(key).body(body).put(V2).then().statusCode(422).extract().jsonPath()
                .getList("detail.loc");
        assertThat(locs).as(body.toString()).contains(loc);
    }

    private static List<Object> append(List<Object> loc, Object element) {
        List<Object> out = new ArrayList<>(loc);
        out.add(element);
        return out;
    }

    @Test
    void managedModelsAreStoredAndUsingThemWithoutAnInstallationEndpointIsAClear4xx() {
        String key = Api.createKey(Api.signUp("models-managed"), "k");
        JsonPath saved = as(key).body(Map.of("version", 2, "mode", "dograh", "dograh", Map.of("api_key",
                "mps-key-12345678", "voice", "default", "speed", 1.2))).put(V2).then().statusCode(200).extract()
                .jsonPath();
        assertThat(saved.getString("effective_configuration.llm.provider")).isEqualTo("dograh");
        assertThat(saved.getDouble("effective_configuration.tts.speed")).isEqualTo(1.2);
        as(key).get("/api/v1/organizations/context").then().statusCode(200)
                .body("model_services.uses_managed_service_v2", equalTo(true))
                .body("model_services.config_source", equalTo("organization_v2"));
        String message = as(key).get("/api/v1/user/configurations/user/validate").then().statusCode(422).extract()
                .jsonPath().getString("detail[0].message");
        assertThat(message).contains("no managed models").contains("VOICEAGENT_MANAGED_MODELS_BASE_URL");
    }

    @Test
    void theLegacyUserConfigurationMigratesToTheOrganizationsOnce() {
        Api.Account a = Api.signUp("models-migrate");
        String key = Api.createKey(a, "k");
        as(key).get(V2 + "/migration-preview").then().statusCode(422);
        as(key).body(Map.of("test_phone_number", "1".repeat(65))).put("/api/v1/user/configurations/user").then()
                .statusCode(422).body("detail[0].loc", equalTo(List.of("body", "test_phone_number")));
        as(key).body(Map.of("timezone", "Mars/Olympus")).put("/api/v1/user/configurations/user").then()
                .statusCode(400);
        JsonPath user = as(key).body(Map.of("llm", Map.of("provider", "openai", "api_key", "sk-legacy-00001111"),
                "tts", Map.of("provider", "deepgram", "api_key", "dg-legacy-2222"),
                "stt", Map.of("provider", "deepgram", "api_key", "dg-legacy-2222"),
                "timezone", "Europe/Paris", "test_phone_number", "+14155550100"))
                .put("/api/v1/user/configurations/user").then().statusCode(200).extract().jsonPath();
        assertThat(user.getString("llm.api_key")).endsWith("1111").doesNotContain("legacy");
        assertThat(user.getString("timezone")).isEqualTo("Europe/Paris");
        as(key).get(V2).then().statusCode(200).body("source", equalTo("legacy_user_v1"))
                .body("effective_configuration.llm.provider", equalTo("openai"));
        as(key).get("/api/v1/organizations/preferences").then().statusCode(200)
                .body("test_phone_number", equalTo("+14155550100"));

        JsonPath preview = as(key).get(V2 + "/migration-preview").then().statusCode(200).extract().jsonPath();
        assertThat(preview.getString("configuration.mode")).isEqualTo("byok");
        assertThat(preview.getString("configuration.byok.pipeline.llm.api_key")).endsWith("1111")
                .doesNotContain("legacy");
        as(key).get(V2).then().body("source", equalTo("legacy_user_v1")); // a preview changes nothing

        as(key).post(V2 + "/migrate").then().statusCode(200).body("source", equalTo("organization_v2"));
        assertThat(stored(a).toString()).contains("sk-legacy-00001111");
        as(key).post(V2 + "/migrate").then().statusCode(409);
        as(key).post(V2 + "/migrate?force=true").then().statusCode(200).body("source", equalTo("organization_v2"));
        as(key).get("/api/v1/organizations/context").then().statusCode(200)
                .body("model_services.has_model_configuration_v2", equalTo(true))
                .body("model_services.uses_managed_service_v2", equalTo(false));
    }

    @Test
    void theDefaultsDescribeEveryProviderAndNeedNoCredentials() {
        JsonPath defaults = given().get("/api/v1/user/configurations/defaults").then().statusCode(200).extract()
                .jsonPath();
        assertThat(defaults.getMap("llm")).containsKeys("openai", "groq", "azure", "dograh");
        assertThat(defaults.getList("llm.openai.required")).containsExactly("api_key");
        assertThat(defaults.getString("llm.openai.properties.base_url.default")).isEqualTo("https://api.openai.com/v1");
        assertThat(defaults.getDouble("tts.elevenlabs.properties.speed.maximum")).isEqualTo(2.0);
        // the models page shows each provider by its title, as the reference titles them
        assertThat(defaults.getString("tts.elevenlabs.title")).isEqualTo("ElevenLabs");
        assertThat(defaults.getString("stt.deepgram.title")).isEqualTo("Deepgram");
        assertThat(defaults.getString("tts.openai.title")).isEqualTo("OpenAI");
        assertThat(defaults.getString("default_providers.llm")).isEqualTo("openai");
        assertThat(defaults.getInt("workflow_configurations.max_call_duration")).isEqualTo(300);
        assertThat(defaults.getDouble("workflow_configurations.max_user_idle_timeout")).isEqualTo(10.0);
        assertThat(defaults.getInt("text_chat_inactivity_timeout_constraints.maximum_seconds")).isEqualTo(10500);
        assertThat(defaults.getString("widget_text_defaults.endChatText")).isEqualTo("End chat");

        String key = Api.createKey(Api.signUp("models-defaults"), "k");
        JsonPath v2 = as(key).get(V2 + "/defaults").then().statusCode(200).extract().jsonPath();
        assertThat(v2.getMap("byok.pipeline.llm")).containsKey("openai").doesNotContainKey("dograh");
        assertThat(v2.getList("dograh.speeds", Double.class)).containsExactly(0.8, 1.0, 1.2);
        assertThat(v2.getInt("workflow_configurations.max_call_duration")).isEqualTo(300);
        assertThat(v2.getMap("byok.realtime.realtime")).containsKeys("openai_realtime", "ultravox_realtime");
        as(key).get(V2 + "/pricing").then().statusCode(200).body("platform_usage", nullValue())
                .body("dograh_model", nullValue());
        given().get(V2 + "/defaults").then().statusCode(401);
    }

    @Test
    void theContextNamesTheOrganizationTheCallerAndWhatIsSetUp() {
        Api.Account a = Api.signUp("context");
        String key = Api.createKey(a, "k");
        JsonPath context = as(key).get("/api/v1/organizations/context").then().statusCode(200).extract().jsonPath();
        assertThat(context.getLong("organization_id")).isEqualTo(a.organizationId());
        assertThat(context.getString("organization_provider_id")).startsWith("org_");
        assertThat(context.getString("model_services.config_source")).isEqualTo("empty");
        assertThat(context.getBoolean("model_services.has_model_configuration_v2")).isFalse();
        assertThat(context.getString("model_services.managed_service_version")).isNull();
        assertThat(context.getLong("user.id")).isEqualTo(a.userId());
        assertThat(context.getString("user.email")).isEqualTo(a.email().toLowerCase(Locale.ROOT));
        assertThat(context.getBoolean("setup.telephony_ready_for_outbound")).isFalse();
        assertThat(context.getInt("setup.active_api_keys")).isEqualTo(1);
        assertThat(context.getBoolean("setup.model_configuration_present")).isFalse();

        as(key).body(ownModels()).put(V2).then().statusCode(200);
        as(key).body(Map.of("name", "sim", "config", Map.of("provider", "simulator")))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
        JsonPath after = as(key).get("/api/v1/organizations/context").then().statusCode(200).extract().jsonPath();
        assertThat(after.getBoolean("setup.model_configuration_present")).isTrue();
        assertThat(after.getInt("setup.telephony_configurations")).isEqualTo(1);
        assertThat(after.getString("model_services.config_source")).isEqualTo("organization_v2");
    }

    private Map<String, Object> stored(Api.Account account) {
        return repository.organizationConfiguration(account.organizationId()).await().indefinitely().orElseThrow();
    }
}
