package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeModelProviders;
import dev.voiceagent.deploy.support.FakeModelProviders.Received;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Voice clones end to end with two organizations against a local server that answers like ElevenLabs: the
 * multipart request carries the recordings' audio, the preview speaks with the voice id and is stored, an agent's
 * draft takes the voice, and a published version's voice cannot be deleted.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeModelProviders.class)
class VoiceClonesEndToEndTest {

    private String key;
    private String otherKey;

    @BeforeEach
    void organizations() {
        FakeModelProviders.reset();
        key = Api.createKey(Api.signUp("clones"), "k");
        otherKey = Api.createKey(Api.signUp("clones-other"), "k");
    }

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    private static void tts(String apiKey, Map<String, Object> tts) {
        as(apiKey).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "simulator"), "tts", tts, "stt", Map.of("provider", "deepgram", "api_key",
                        "dg"))))).put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
    }

    /** Uploads and records one audio sample; its recording id. */
    private static String recording(String apiKey, String audio) {
        Map<String, Object> item = as(apiKey).body(Map.of("files", List.of(Map.of("filename", "sample.wav", "mime_type",
                "audio/wav", "file_size", audio.length())))).post("/api/v1/workflow-recordings/upload-url").then()
                .statusCode(200).extract().jsonPath().getMap("items[0]");
        given().urlEncodingEnabled(false).contentType("audio/wav").body(audio.getBytes(StandardCharsets.UTF_8))
                .put((String) item.get("upload_url")).then().statusCode(200);
        as(apiKey).body(Map.of("recordings", List.of(Map.of("recording_id", item.get("recording_id"), "transcript",
                "Sample", "storage_key", item.get("storage_key"))))).post("/api/v1/workflow-recordings/").then()
                .statusCode(200);
        return (String) item.get("recording_id");
    }

    @Test
    void aVoiceIsClonedFromRecordingsPreviewedAndGivenToAnAgent() {
        tts(key, Map.of("provider", "elevenlabs", "api_key", "xi-clone-key", "voice", "Rachel"));
        as(key).get("/api/v1/voice-clones/capabilities").then().statusCode(200)
                .body("configured_provider", equalTo("elevenlabs")).body("can_clone", equalTo(true))
                .body("providers.find { it.provider == 'deepgram' }.can_clone", equalTo(false))
                .body("providers.find { it.provider == 'deepgram' }.reason", containsString("no voice cloning"));
        String first = recording(key, "RIFF-sample-one");
        String second = recording(key, "RIFF-sample-two");

        JsonPath clone = as(key).body(Map.of("name", "Front desk Ann", "description", "Warm", "recording_ids",
                List.of(first, second))).post("/api/v1/voice-clones").then().statusCode(200).extract().jsonPath();
        assertThat(clone.getString("provider")).isEqualTo("elevenlabs");
        assertThat(clone.getString("provider_voice_id")).isEqualTo("cl0n3dV01c3");
        assertThat(clone.getString("status")).isEqualTo("ready");
        assertThat(clone.getList("recording_ids")).containsExactly(first, second);
        long id = clone.getLong("id");
        Received add = FakeModelProviders.REQUESTS.stream().filter(r -> r.path().equals("/v1/voices/add")).findFirst()
                .orElseThrow();
        assertThat(add.method()).isEqualTo("POST");
        assertThat(add.header("xi-api-key")).isEqualTo("xi-clone-key");
        assertThat(add.header("Content-Type")).startsWith("multipart/form-data; boundary=");
        assertThat(add.body()).contains("name=\"name\"\r\n\r\nFront desk Ann").contains("RIFF-sample-one")
                .contains("RIFF-sample-two").contains("name=\"files\"; filename=\"sample.wav\"");
        as(key).get("/api/v1/voice-clones").then().statusCode(200).body("id", equalTo(List.of((int) id)));
        as(otherKey).get("/api/v1/voice-clones").then().statusCode(200).body("size()", equalTo(0));

        JsonPath preview = as(key).body(Map.of("text", "Hello, this is Ann from Acme Dental."))
                .post("/api/v1/voice-clones/" + id + "/preview").then().statusCode(200).extract().jsonPath();
        Received speak = FakeModelProviders.REQUESTS.stream().filter(r -> r.path().startsWith("/v1/text-to-speech/"))
                .findFirst().orElseThrow();
        assertThat(speak.path()).isEqualTo("/v1/text-to-speech/cl0n3dV01c3");
        assertThat(speak.body()).contains("Hello, this is Ann from Acme Dental.");
        byte[] audio = given().urlEncodingEnabled(false).get(preview.getString("audio_url")).then().statusCode(200)
                .extract().asByteArray();
        assertThat(new String(audio, StandardCharsets.UTF_8)).isEqualTo("ID3-fake-mp3-of:cl0n3dV01c3");
        as(key).body(Map.of("text", "x".repeat(501))).post("/api/v1/voice-clones/" + id + "/preview").then()
                .statusCode(422);
        as(otherKey).body(Map.of("text", "hi")).post("/api/v1/voice-clones/" + id + "/preview").then().statusCode(404);

        long workflow = as(key).body(Map.of("name", "Reception", "workflow_definition",
                WorkflowEndToEndTest.definition("Help"))).post("/api/v1/workflow/create/definition").then().statusCode(200)
                .extract().jsonPath().getLong("id");
        as(otherKey).body(Map.of("clone_id", id)).put("/api/v1/voice-clones/agents/" + workflow).then().statusCode(404);
        as(key).body(Map.of("clone_id", id)).put("/api/v1/voice-clones/agents/" + workflow).then().statusCode(200)
                .body("status", equalTo("draft"));
        as(key).get("/api/v1/voice-clones/agents").then().statusCode(200)
                .body("[0].workflow_id", equalTo((int) workflow)).body("[0].draft_clone_id", equalTo((int) id))
                .body("[0].published_clone_id", equalTo(null)).body("[0].provider_voice_id", equalTo("cl0n3dV01c3"));
        as(key).post("/api/v1/workflow/" + workflow + "/publish").then().statusCode(200);
        as(key).delete("/api/v1/voice-clones/" + id).then().statusCode(409).body("detail", containsString("Reception"));
        assertThat(FakeModelProviders.REQUESTS.stream().filter(r -> r.method().equals("DELETE"))).isEmpty();
        as(otherKey).delete("/api/v1/voice-clones/" + id).then().statusCode(404);
    }

    @Test
    void aProviderThatCannotCloneOrRefusesIsSaidClearly() {
        String sample = recording(key, "RIFF-sample");
        tts(key, Map.of("provider", "deepgram", "api_key", "dg-key"));
        as(key).body(Map.of("name", "Ann", "recording_ids", List.of(sample))).post("/api/v1/voice-clones").then()
                .statusCode(400).body("detail", containsString("Deepgram offers no voice cloning"));
        tts(key, Map.of("provider", "elevenlabs", "api_key", "xi-key", "voice", "Rachel"));
        as(key).body(Map.of("name", "Ann", "recording_ids", List.of("missing1"))).post("/api/v1/voice-clones").then()
                .statusCode(404);
        String theirs = recording(otherKey, "RIFF-theirs");
        as(key).body(Map.of("name", "Ann", "recording_ids", List.of(theirs))).post("/api/v1/voice-clones").then()
                .statusCode(404);
        FakeModelProviders.behaviour = FakeModelProviders.Behaviour.REFUSE;
        as(key).body(Map.of("name", "Ann", "recording_ids", List.of(sample))).post("/api/v1/voice-clones").then()
                .statusCode(502).body("detail", containsString("Invalid API key"));
        as(key).get("/api/v1/voice-clones").then().statusCode(200).body("size()", equalTo(0));
        FakeModelProviders.behaviour = FakeModelProviders.Behaviour.OK;
        long id = as(key).body(Map.of("name", "Ann", "recording_ids", List.of(sample))).post("/api/v1/voice-clones")
                .then().statusCode(200).extract().jsonPath().getLong("id");
        as(key).delete("/api/v1/voice-clones/" + id).then().statusCode(200);
        assertThat(FakeModelProviders.REQUESTS.stream().filter(r -> r.method().equals("DELETE")
                && r.path().equals("/v1/voices/cl0n3dV01c3"))).hasSize(1);
        as(key).get("/api/v1/voice-clones").then().statusCode(200).body("size()", equalTo(0));
    }
}
