package dev.voiceagent.deploy.support;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.Map;

/**
 * What every carrier's end-to-end test sets up (test code): an organization whose pipeline runs on the fakes'
 * OpenAI, Deepgram and ElevenLabs, and a run polled until it completes.
 */
public final class VoiceAgents {

    private VoiceAgents() {
    }

    public static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    /** A new organization's API key, its model configuration the pipeline on {@link FakeVoiceProviders}. */
    public static String organization(String name) {
        String key = Api.createKey(Api.signUp(name), "k");
        as(key).body(Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                "llm", Map.of("provider", "openai", "api_key", "sk-voice-test", "model", "gpt-4.1-mini"),
                "stt", Map.of("provider", "deepgram", "api_key", "dg-voice-test", "model", "nova-3-general"),
                "tts", Map.of("provider", "elevenlabs", "api_key", "el-voice-test", "voice", "voice123")))))
                .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        return key;
    }

    /** A workflow of {@code definition}, its id. */
    public static long workflow(String key, String name, Map<String, Object> definition) {
        return as(key).body(Map.of("name", name, "workflow_definition", definition))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    /** The run once it completed (within 30 s). */
    public static JsonPath completedRun(String key, long workflow, long runId) throws InterruptedException {
        for (int i = 0; i < 300; i++) {
            JsonPath run = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(200)
                    .extract().jsonPath();
            if (run.getBoolean("is_completed")) {
                return run;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("run " + runId + " never completed");
    }
}
