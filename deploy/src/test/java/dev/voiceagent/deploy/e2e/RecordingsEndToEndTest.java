package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

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
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Recordings end to end with two organizations: signed uploads, records of uploaded files, list filters, renames,
 * deletes refused while a published version names the recording, and transcription through the organization's
 * speech-to-text model (OpenAI-compatible and Deepgram, against a local server that answers like each).
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeModelProviders.class)
class RecordingsEndToEndTest {

    private static final byte[] AUDIO = "RIFF....WAVEfmt fake audio".getBytes(StandardCharsets.US_ASCII);

    private String key;
    private String otherKey;

    @BeforeEach
    void organizations() {
        FakeModelProviders.reset();
        key = Api.createKey(Api.signUp("recordings"), "k");
        otherKey = Api.createKey(Api.signUp("recordings-other"), "k");
    }

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    /** Uploads n files and returns their upload items (recording_id, storage_key). */
    private List<Map<String, Object>> upload(String apiKey, int n) {
        List<Map<String, Object>> files = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            files.add(Map.of("filename", "greeting " + i + ".wav", "mime_type", "audio/wav", "file_size", AUDIO.length));
        }
        List<Map<String, Object>> items = as(apiKey).body(Map.of("files", files)).post("/api/v1/workflow-recordings/upload-url")
                .then().statusCode(200).extract().jsonPath().getList("items");
        for (Map<String, Object> item : items) {
            given().urlEncodingEnabled(false).contentType("audio/wav").body(AUDIO).put((String) item.get("upload_url"))
                    .then().statusCode(200);
        }
        return items;
    }

    private static Map<String, Object> record(Map<String, Object> item, Long workflowId, String provider) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("recording_id", item.get("recording_id"));
        r.put("storage_key", item.get("storage_key"));
        r.put("transcript", "Hello and welcome");
        r.put("tts_provider", provider);
        r.put("workflow_id", workflowId);
        return r;
    }

    private long workflowGreetingWith(String apiKey, String recordingId) {
        Map<String, Object> definition = WorkflowEndToEndTest.definition("Help");
        @SuppressWarnings("unchecked")
        Map<String, Object> start = (Map<String, Object>) ((List<Map<String, Object>>) definition.get("nodes")).getFirst()
                .get("data");
        start.put("greeting_type", "audio");
        start.put("greeting_recording_id", recordingId);
        return as(apiKey).body(Map.of("name", "Greets with a recording", "workflow_definition", definition))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    @Test
    void uploadRecordListRenameAndDelete() {
        long workflow = as(key).body(Map.of("name", "Plain", "workflow_definition", WorkflowEndToEndTest.definition("Hi")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        List<Map<String, Object>> items = upload(key, 2);
        assertThat(items).allSatisfy(i -> {
            assertThat((String) i.get("recording_id")).hasSize(8);
            assertThat((String) i.get("storage_key")).startsWith("recordings/").endsWith("/greeting_" + items.indexOf(i)
                    + ".wav");
        });
        JsonPath created = as(key).body(Map.of("recordings", List.of(record(items.get(0), workflow, "elevenlabs"),
                record(items.get(1), null, "deepgram")))).post("/api/v1/workflow-recordings/").then().statusCode(200)
                .extract().jsonPath();
        assertThat(created.getList("recordings.recording_id")).containsExactly(items.get(0).get("recording_id"),
                items.get(1).get("recording_id"));
        assertThat(created.getString("recordings[0].storage_backend")).isEqualTo("local");
        assertThat(created.getBoolean("recordings[0].is_active")).isTrue();
        long id = created.getLong("recordings[0].id");

        // the same recording id again, a file never uploaded, another organization's file: nothing is stored
        as(key).body(Map.of("recordings", List.of(record(items.get(0), null, null)))).post("/api/v1/workflow-recordings/")
                .then().statusCode(409);
        Map<String, Object> missing = new LinkedHashMap<>(record(items.get(1), null, null));
        missing.put("recording_id", "fresh-id");
        missing.put("storage_key", ((String) items.get(1).get("storage_key")).replace("greeting_1", "never"));
        as(key).body(Map.of("recordings", List.of(missing))).post("/api/v1/workflow-recordings/").then().statusCode(400)
                .body("detail", containsString("Nothing was uploaded"));
        as(otherKey).body(Map.of("recordings", List.of(record(items.get(1), null, null))))
                .post("/api/v1/workflow-recordings/").then().statusCode(404);
        as(key).body(Map.of("files", List.of(Map.of("filename", "x.exe", "mime_type", "application/x-msdownload",
                "file_size", 10)))).post("/api/v1/workflow-recordings/upload-url").then().statusCode(400)
                .body("detail", containsString("Unsupported audio type"));
        as(key).body(Map.of("files", List.of(Map.of("filename", "big.wav", "file_size", 6 * 1024 * 1024))))
                .post("/api/v1/workflow-recordings/upload-url").then().statusCode(422);

        as(key).get("/api/v1/workflow-recordings/").then().statusCode(200).body("total", equalTo(2));
        as(key).get("/api/v1/workflow-recordings/?workflow_id=" + workflow).then().statusCode(200)
                .body("total", equalTo(1)).body("recordings[0].id", equalTo((int) id));
        as(key).get("/api/v1/workflow-recordings/?tts_provider=deepgram").then().statusCode(200)
                .body("recordings.recording_id", equalTo(List.of(items.get(1).get("recording_id"))));
        as(otherKey).get("/api/v1/workflow-recordings/").then().statusCode(200).body("total", equalTo(0));

        as(key).body(Map.of("recording_id", "welcome-v2")).patch("/api/v1/workflow-recordings/" + id).then()
                .statusCode(200).body("recording_id", equalTo("welcome-v2"));
        as(key).body(Map.of("recording_id", items.get(1).get("recording_id"))).patch("/api/v1/workflow-recordings/" + id)
                .then().statusCode(409);
        as(key).body(Map.of("recording_id", "no spaces")).patch("/api/v1/workflow-recordings/" + id).then()
                .statusCode(400);
        as(otherKey).body(Map.of("recording_id", "mine")).patch("/api/v1/workflow-recordings/" + id).then()
                .statusCode(404);

        // a published version names it: no delete until it no longer does
        long greeter = workflowGreetingWith(key, "welcome-v2");
        as(key).delete("/api/v1/workflow-recordings/welcome-v2").then().statusCode(409)
                .body("detail", containsString("Greets with a recording"));
        as(otherKey).delete("/api/v1/workflow-recordings/welcome-v2").then().statusCode(404);
        as(key).body(Map.of("workflow_definition", WorkflowEndToEndTest.definition("Help"))).put("/api/v1/workflow/" + greeter)
                .then().statusCode(200);
        as(key).post("/api/v1/workflow/" + greeter + "/publish").then().statusCode(200);
        as(key).delete("/api/v1/workflow-recordings/welcome-v2").then().statusCode(200).body("success", equalTo(true));
        as(key).get("/api/v1/workflow-recordings/").then().statusCode(200).body("total", equalTo(1));
        as(key).delete("/api/v1/workflow-recordings/welcome-v2").then().statusCode(404);
    }

    private void speechToText(Map<String, Object> stt) {
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "simulator"), "tts", Map.of("provider", "deepgram", "api_key", "dg-tts"),
                "stt", stt)))).put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
    }

    private io.restassured.response.ValidatableResponse transcribe(String language) {
        return given().header("X-API-Key", key).multiPart("file", "hello.wav", AUDIO, "audio/wav")
                .multiPart("language", language).post("/api/v1/workflow-recordings/transcribe").then();
    }

    @Test
    void aRecordingIsTranscribedWithTheOrganizationsSpeechToTextModel() {
        speechToText(Map.of("provider", "openai", "api_key", "sk-stt-1", "model", "gpt-4o-mini-transcribe"));
        transcribe("en").statusCode(200).body("transcript", equalTo("Hello, thanks for calling Acme Dental."))
                .body("provider", equalTo("openai")).body("model", equalTo("gpt-4o-mini-transcribe"));
        Received openai = FakeModelProviders.REQUESTS.stream().filter(r -> r.path().equals("/v1/audio/transcriptions"))
                .findFirst().orElseThrow();
        assertThat(openai.method()).isEqualTo("POST");
        assertThat(openai.header("Authorization")).isEqualTo("Bearer sk-stt-1");
        assertThat(openai.body()).contains("name=\"model\"\r\n\r\ngpt-4o-mini-transcribe")
                .contains("name=\"language\"\r\n\r\nen").contains("filename=\"audio.wav\"").contains("fake audio");

        speechToText(Map.of("provider", "deepgram", "api_key", "dg-stt-2", "model", "nova-3"));
        transcribe("pt-BR").statusCode(200).body("transcript", equalTo("Your appointment is confirmed."))
                .body("duration_seconds", equalTo(2.5f)).body("language", equalTo("pt-BR"));
        Received deepgram = FakeModelProviders.REQUESTS.stream().filter(r -> r.path().equals("/v1/listen")).findFirst()
                .orElseThrow();
        assertThat(deepgram.header("Authorization")).isEqualTo("Token dg-stt-2");
        assertThat(deepgram.header("Content-Type")).isEqualTo("audio/wav");
        assertThat(deepgram.query()).contains("model=nova-3").contains("language=pt-BR");
        assertThat(deepgram.body()).isEqualTo(new String(AUDIO, StandardCharsets.US_ASCII));

        FakeModelProviders.behaviour = Behaviour.REFUSE;
        transcribe("en").statusCode(502).body("detail", containsString("Invalid credentials."));
        FakeModelProviders.behaviour = Behaviour.SLOW;
        transcribe("en").statusCode(502);
        FakeModelProviders.behaviour = Behaviour.OK;

        given().header("X-API-Key", key).multiPart("file", "notes.txt", "text".getBytes(), "text/plain")
                .post("/api/v1/workflow-recordings/transcribe").then().statusCode(400)
                .body("detail", containsString("Unsupported audio type"));
        given().header("X-API-Key", key).multiPart("language", "en").post("/api/v1/workflow-recordings/transcribe")
                .then().statusCode(422);
    }
}
