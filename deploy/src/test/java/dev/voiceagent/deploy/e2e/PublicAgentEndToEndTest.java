package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Calls placed by a program through an agent's trigger or uuid, on the simulator. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
public class PublicAgentEndToEndTest {

    private String key;
    private long workflow;
    private String workflowUuid;
    private String path;

    private static RequestSpecification json() {
        return given().contentType(ContentType.JSON);
    }

    private static RequestSpecification as(String key) {
        return json().header("X-API-Key", key);
    }

    public static Map<String, Object> withTrigger(String triggerPath, boolean enabled) {
        Map<String, Object> definition = new LinkedHashMap<>(WorkflowEndToEndTest.definition("Remind {{first_name}}"));
        @SuppressWarnings("unchecked")
        List<Object> nodes = new ArrayList<>((List<Object>) definition.get("nodes"));
        nodes.add(WorkflowEndToEndTest.node("api", "trigger", Map.of("name", "API", "trigger_path", triggerPath,
                "enabled", enabled)));
        definition.put("nodes", nodes);
        return definition;
    }

    @BeforeEach
    void agent() {
        key = Api.createKey(Api.signUp("trigger"), "k");
        path = "demo-" + UUID.randomUUID().toString().substring(0, 8);
        JsonPath created = as(key).body(Map.of("name", "Reminder", "workflow_definition", withTrigger(path, true)))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath();
        workflow = created.getLong("id");
        workflowUuid = as(key).get("/api/v1/workflow/fetch/" + workflow).then().statusCode(200).extract().jsonPath()
                .getString("workflow_uuid");
        as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator", "ring_delay_ms", 50)))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
    }

    private Map<String, Object> call() {
        return Map.of("phone_number", "+15550100123", "initial_context", Map.of("first_name", "Ann"));
    }

    @Test
    void aTriggerPlacesACallOnThePublishedVersionWithTheGivenContext() {
        JsonPath placed = as(key).body(call()).post("/api/v1/public/agent/" + path).then().statusCode(200).extract()
                .jsonPath();
        assertThat(placed.getString("status")).isEqualTo("initiated");
        assertThat(placed.getString("workflow_run_name")).matches("WR-API-\\d{4}");
        JsonPath run = as(key).get("/api/v1/workflow/" + workflow + "/runs/" + placed.getLong("workflow_run_id")).then()
                .statusCode(200).extract().jsonPath();
        assertThat(run.getString("initial_context.first_name")).isEqualTo("Ann");
        assertThat(run.getString("initial_context.phone_number")).isEqualTo("+15550100123");
        assertThat(run.getString("mode")).isEqualTo("simulator");
        long published = as(key).get("/api/v1/workflow/fetch/" + workflow).then().extract().jsonPath()
                .getLong("current_definition_id");
        assertThat(run.getLong("definition_id")).isEqualTo(published);

        as(key).body(call()).post("/api/v1/public/agent/workflow/" + workflowUuid).then().statusCode(200)
                .body("workflow_run_name", org.hamcrest.Matchers.startsWith("WR-API-"));
        as(key).body(call()).post("/api/v1/public/agent/test/workflow/" + workflowUuid).then().statusCode(200)
                .body("workflow_run_name", org.hamcrest.Matchers.startsWith("WR-TEST-"));
    }

    @Test
    void theKeyIsRequiredMustBeValidAndOnlyReachesItsOwnOrganization() {
        // anonymous: a 401 before anything else (the reference answers FastAPI's 422 for the missing header)
        json().body(call()).post("/api/v1/public/agent/" + path).then().statusCode(401)
                .body("detail", equalTo("X-API-Key header required"));
        json().body("{\"phone_number\":").post("/api/v1/public/agent/" + path).then().statusCode(401);
        as("dgr_not_a_key").body(call()).post("/api/v1/public/agent/" + path).then().statusCode(401);
        String other = Api.createKey(Api.signUp("trigger-other"), "k");
        as(other).body(call()).post("/api/v1/public/agent/" + path).then().statusCode(404);
        as(other).body(call()).post("/api/v1/public/agent/workflow/" + workflowUuid).then().statusCode(404);
        as(key).body(call()).post("/api/v1/public/agent/no-such-trigger").then().statusCode(404);
        as(key).body(call()).post("/api/v1/public/agent/workflow/not-a-uuid").then().statusCode(404);
        as(key).body(Map.of("initial_context", Map.of())).post("/api/v1/public/agent/" + path).then().statusCode(422);
    }

    @Test
    void theTestVariantsUseTheDraftAndAnArchivedWorkflowOrADisabledTriggerIsNotFound() {
        String draftPath = path + "-draft";
        as(key).body(Map.of("workflow_definition", withTrigger(draftPath, true))).put("/api/v1/workflow/" + workflow)
                .then().statusCode(200);
        as(key).body(call()).post("/api/v1/public/agent/test/" + draftPath).then().statusCode(200)
                .body("workflow_run_name", org.hamcrest.Matchers.startsWith("WR-TEST-"));
        as(key).body(call()).post("/api/v1/public/agent/" + draftPath).then().statusCode(404); // not published
        as(key).body(call()).post("/api/v1/public/agent/" + path).then().statusCode(200); // still published

        as(key).body(Map.of("workflow_definition", withTrigger(draftPath, false))).put("/api/v1/workflow/" + workflow)
                .then().statusCode(200);
        as(key).body(call()).post("/api/v1/public/agent/test/" + draftPath).then().statusCode(404);

        as(key).body(Map.of("status", "archived")).put("/api/v1/workflow/" + workflow + "/status").then().statusCode(200);
        as(key).body(call()).post("/api/v1/public/agent/" + path).then().statusCode(404)
                .body("detail", equalTo("Workflow is not active"));
    }

    @Test
    void anOrganizationWithoutTelephonyIsToldToSetItUp() {
        String bare = Api.createKey(Api.signUp("trigger-bare"), "k");
        as(bare).body(Map.of("name", "Reminder", "workflow_definition", withTrigger(path + "-bare", true)))
                .post("/api/v1/workflow/create/definition").then().statusCode(200);
        int status = as(bare).body(call()).post("/api/v1/public/agent/" + path + "-bare").then().extract().statusCode();
        assertThat(status).isEqualTo(400);
    }
}
