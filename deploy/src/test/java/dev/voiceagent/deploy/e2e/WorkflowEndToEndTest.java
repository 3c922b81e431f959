package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

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
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Every workflow operation end to end, including the 404 across organizations and each 422 shape. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
public class WorkflowEndToEndTest {

    @Inject
    AgroalDataSource dataSource;

    private String key;
    private String otherKey;

    @BeforeEach
    void twoOrganizations() {
        key = Api.createKey(Api.signUp("wf"), "k");
        otherKey = Api.createKey(Api.signUp("wf-other"), "k");
    }

    private RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    static Map<String, Object> node(String id, String type, Map<String, Object> data) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("id", id);
        node.put("type", type);
        node.put("position", Map.of("x", 1, "y", 2));
        node.put("data", new LinkedHashMap<>(data));
        return node;
    }

    static Map<String, Object> edge(String id, String source, String target, String label) {
        return Map.of("id", id, "source", source, "target", target, "data", Map.of("label", label, "condition", "c"));
    }

    public static Map<String, Object> definition(String prompt) {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("nodes", new ArrayList<>(List.of(
                node("start", "startCall", Map.of("name", "Start", "prompt", prompt, "greeting", "Hi {{first_name}}")),
                node("agent", "agentNode", Map.of("name", "Agent", "prompt", "Help",
                        "qa_api_key_note", "not a secret key name")),
                node("end", "endCall", Map.of("name", "End", "prompt", "Bye")))));
        definition.put("edges", new ArrayList<>(List.of(edge("e1", "start", "agent", "Go"), edge("e2", "agent", "end", "Done"))));
        definition.put("viewport", Map.of("x", 5, "y", 6, "zoom", 0.75));
        return definition;
    }

    private long create(String apiKey, String name, Map<String, Object> definition) {
        return as(apiKey).body(Map.of("name", name, "workflow_definition", definition))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    @Test
    void createFetchUpdatePublishAndVersions() {
        long id = create(key, "Reminder", definition("Remind {{first_name}}"));
        JsonPath created = as(key).get("/api/v1/workflow/fetch/" + id).then().statusCode(200)
                .body("name", equalTo("Reminder")).body("status", equalTo("active"))
                .body("version_number", equalTo(1)).body("version_status", equalTo("published"))
                .body("total_runs", equalTo(0)).body("workflow_uuid", notNullValue())
                .body("workflow_definition.viewport.zoom", equalTo(0.75f))
                .body("workflow_definition.nodes[0].position.x", equalTo(1))
                .extract().jsonPath();
        long v1 = created.getLong("current_definition_id");

        // a name change applies directly and makes no draft
        as(key).body(Map.of("name", "Reminder 2")).put("/api/v1/workflow/" + id).then().statusCode(200)
                .body("name", equalTo("Reminder 2")).body("version_status", equalTo("published"));
        as(key).post("/api/v1/workflow/" + id + "/publish").then().statusCode(400)
                .body("detail", equalTo("No draft to publish"));

        // a definition change goes to the draft (v2), updated in place on the next change
        as(key).body(Map.of("workflow_definition", definition("Remind {{first_name}} kindly"))).put("/api/v1/workflow/" + id)
                .then().statusCode(200).body("version_number", equalTo(2)).body("version_status", equalTo("draft"))
                .body("current_definition_id", equalTo((int) v1));
        as(key).body(Map.of("workflow_definition", definition("Third text"), "template_context_variables",
                Map.of("first_name", "Ann"))).put("/api/v1/workflow/" + id)
                .then().statusCode(200).body("version_number", equalTo(2))
                .body("workflow_definition.nodes[0].data.prompt", equalTo("Third text"))
                .body("template_context_variables.first_name", equalTo("Ann"));

        // publish: the draft becomes the one published version, v1 archived
        as(key).post("/api/v1/workflow/" + id + "/publish").then().statusCode(200)
                .body("version_number", equalTo(2)).body("status", equalTo("published")).body("published_at", notNullValue());
        as(key).get("/api/v1/workflow/" + id + "/versions").then().statusCode(200)
                .body("version_number", equalTo(List.of(2, 1))).body("status", equalTo(List.of("published", "archived")));
        as(key).get("/api/v1/workflow/" + id + "/versions?limit=1&offset=1").then().statusCode(200)
                .body("version_number", equalTo(List.of(1)));
        Sql sql = new Sql(dataSource);
        assertThat(sql.queryLong("SELECT count(*) FROM workflow_definitions WHERE workflow_id = ? AND status = 'published'", id))
                .isEqualTo(1);

        // create-draft copies the published version once
        long draftId = as(key).post("/api/v1/workflow/" + id + "/create-draft").then().statusCode(200)
                .body("status", equalTo("draft")).body("version_number", equalTo(3))
                .body("workflow_json.nodes[0].data.prompt", equalTo("Third text")).extract().jsonPath().getLong("id");
        as(key).post("/api/v1/workflow/" + id + "/create-draft").then().statusCode(200).body("id", equalTo((int) draftId));
    }

    @Test
    void theDatabaseRefusesASecondPublishedVersion() {
        long id = create(key, "Guarded", definition("p"));
        Sql sql = new Sql(dataSource);
        long organization = sql.queryLong("SELECT organization_id FROM workflows WHERE id = ?", id);
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sql.update("INSERT INTO workflow_definitions"
                + " (organization_id, workflow_id, version_number, status, workflow_json) VALUES (?, ?, 9, 'published', '{}')",
                organization, id)).hasMessageContaining("workflow_definitions_one_published");
    }

    @Test
    void publishValidatesFullyAndValidateReportsErrors() {
        long id = create(key, "Broken", definition("p"));
        Map<String, Object> broken = definition("p");
        @SuppressWarnings("unchecked")
        List<Map<String, Object>> nodes = (List<Map<String, Object>>) broken.get("nodes");
        ((Map<String, Object>) nodes.get(1).get("data")).remove("prompt");
        as(key).body(Map.of("workflow_definition", broken)).put("/api/v1/workflow/" + id).then().statusCode(200);
        as(key).post("/api/v1/workflow/" + id + "/validate").then().statusCode(422)
                .body("detail.is_valid", equalTo(false))
                .body("detail.errors[0].kind", equalTo("node")).body("detail.errors[0].id", equalTo("agent"))
                .body("detail.errors[0].field", equalTo("data.prompt"))
                .body("detail.errors[0].message", equalTo("prompt is required"));
        as(key).post("/api/v1/workflow/" + id + "/publish").then().statusCode(422)
                .body("detail.errors", hasSize(1));
        long good = create(key, "Good", definition("p"));
        as(key).post("/api/v1/workflow/" + good + "/validate").then().statusCode(200)
                .body("is_valid", equalTo(true)).body("errors", hasSize(0));
    }

    @Test
    void malformedDefinitionsAre422AndTakenTriggerPathsAre409() {
        as(key).body(Map.of("name", "Bad", "workflow_definition", Map.of("nodes", List.of(node("x", "teleporter",
                Map.of("name", "X")))))).post("/api/v1/workflow/create/definition").then().statusCode(422)
                .body("detail.errors[0].message", equalTo("Unknown node type: 'teleporter'"));
        Map<String, Object> withTrigger = definition("p");
        @SuppressWarnings("unchecked")
        List<Object> nodes = (List<Object>) withTrigger.get("nodes");
        nodes.add(node("t", "trigger", Map.of("name", "T", "trigger_path", "new-lead")));
        create(key, "First", withTrigger);
        as(key).body(Map.of("name", "Second", "workflow_definition", withTrigger))
                .post("/api/v1/workflow/create/definition").then().statusCode(409)
                .body("detail.errors[0].field", equalTo("data.trigger_path"))
                .body("detail.errors[0].message", containsString("already in use"));
        // the same path is free in another organization
        create(otherKey, "Theirs", withTrigger);
        nodes.set(nodes.size() - 1, node("t", "trigger", Map.of("name", "T", "trigger_path", "bad path!")));
        as(key).body(Map.of("name", "Third", "workflow_definition", withTrigger))
                .post("/api/v1/workflow/create/definition").then().statusCode(422)
                .body("detail.errors[0].field", equalTo("data.trigger_path"));
        as(key).body(Map.of("name", "NoDef")).post("/api/v1/workflow/create/definition").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "workflow_definition")));
    }

    @Test
    void emptyTriggerPathsAreMintedAndDuplicatesGetNewOnes() {
        Map<String, Object> withTrigger = definition("p");
        @SuppressWarnings("unchecked")
        List<Object> nodes = (List<Object>) withTrigger.get("nodes");
        nodes.add(node("t", "trigger", Map.of("name", "T", "trigger_path", "")));
        long id = create(key, "Triggered", withTrigger);
        String minted = as(key).get("/api/v1/workflow/fetch/" + id).then().statusCode(200).extract()
                .path("workflow_definition.nodes[3].data.trigger_path");
        assertThat(minted).matches("[0-9a-f-]{36}");
        JsonPath copy = as(key).post("/api/v1/workflow/" + id + "/duplicate").then().statusCode(200)
                .body("name", equalTo("Triggered - Duplicate")).extract().jsonPath();
        assertThat(copy.getString("workflow_definition.nodes[3].data.trigger_path")).matches("[0-9a-f-]{36}")
                .isNotEqualTo(minted);
        assertThat(copy.getLong("id")).isNotEqualTo(id);
    }

    @Test
    void secretsAreMaskedAndAMaskedValueSentBackKeepsTheStoredOne() {
        Map<String, Object> definition = definition("p");
        @SuppressWarnings("unchecked")
        List<Object> nodes = (List<Object>) definition.get("nodes");
        nodes.add(node("qa", "qa", Map.of("name", "QA", "qa_api_key", "sk-secret-12345678")));
        long id = create(key, "Secretive", definition);
        String shown = as(key).get("/api/v1/workflow/fetch/" + id).then().statusCode(200).extract()
                .path("workflow_definition.nodes[3].data.qa_api_key");
        assertThat(shown).isEqualTo("**************5678");
        // send the masked definition back with another change: the stored secret is kept
        @SuppressWarnings("unchecked")
        Map<String, Object> fetched = as(key).get("/api/v1/workflow/fetch/" + id).then().extract().path("workflow_definition");
        ((Map<String, Object>) ((List<Map<String, Object>>) fetched.get("nodes")).get(0).get("data")).put("prompt", "changed");
        as(key).body(Map.of("workflow_definition", fetched)).put("/api/v1/workflow/" + id).then().statusCode(200);
        Sql sql = new Sql(dataSource);
        assertThat(sql.queryLong("SELECT count(*) FROM workflow_definitions WHERE workflow_id = ? AND status = 'draft'"
                + " AND workflow_json::text LIKE '%sk-secret-12345678%'", id)).isEqualTo(1);
    }

    @Test
    void listingCountingStatusAndFilters() {
        long a = create(key, "Alpha", definition("p"));
        long b = create(key, "Beta", definition("p"));
        as(key).body(Map.of("status", "archived")).put("/api/v1/workflow/" + b + "/status").then().statusCode(200)
                .body("status", equalTo("archived"));
        as(key).body(Map.of("status", "deleted")).put("/api/v1/workflow/" + b + "/status").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "status")));
        as(key).get("/api/v1/workflow/count").then().statusCode(200)
                .body("total", equalTo(2)).body("active", equalTo(1)).body("archived", equalTo(1));
        as(key).get("/api/v1/workflow/fetch").then().statusCode(200).body("name", equalTo(List.of("Beta", "Alpha")))
                .body("[0].total_runs", equalTo(0)).body("[0].folder_id", nullValue());
        as(key).get("/api/v1/workflow/fetch?status=active").then().statusCode(200).body("id", equalTo(List.of((int) a)));
        as(key).get("/api/v1/workflow/summary?status=archived, active").then().statusCode(200)
                .body("name", equalTo(List.of("Beta", "Alpha")));
        for (String bad : List.of("deleted", "active,", " ")) {
            as(key).queryParam("status", bad).get("/api/v1/workflow/fetch").then().statusCode(422)
                    .body("detail[0].loc", equalTo(List.of("query", "status")))
                    .body("detail[0].msg", containsString("Allowed values: ['active', 'archived']"));
        }
        as(key).get("/api/v1/workflow/" + a + "/versions?limit=0").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("query", "limit")));
        as(key).get("/api/v1/workflow/" + a + "/versions?offset=-1").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("query", "offset")));
    }

    @Test
    void anotherOrganizationsWorkflowIsNotFoundEverywhere() {
        long theirs = create(otherKey, "Theirs", definition("p"));
        String notFound = "Workflow with id " + theirs + " not found";
        as(key).get("/api/v1/workflow/fetch/" + theirs).then().statusCode(404).body("detail", equalTo(notFound));
        as(key).body(Map.of("name", "x")).put("/api/v1/workflow/" + theirs).then().statusCode(404);
        as(key).body(Map.of("status", "archived")).put("/api/v1/workflow/" + theirs + "/status").then().statusCode(404);
        as(key).body(Collections.singletonMap("folder_id", null)).put("/api/v1/workflow/" + theirs + "/folder").then().statusCode(404);
        as(key).post("/api/v1/workflow/" + theirs + "/duplicate").then().statusCode(404);
        as(key).post("/api/v1/workflow/" + theirs + "/validate").then().statusCode(404);
        as(key).get("/api/v1/workflow/" + theirs + "/versions").then().statusCode(404);
        as(key).post("/api/v1/workflow/" + theirs + "/publish").then().statusCode(404);
        as(key).post("/api/v1/workflow/" + theirs + "/create-draft").then().statusCode(404);
        as(key).get("/api/v1/workflow/fetch").then().statusCode(200).body("", hasSize(0));
        as(otherKey).get("/api/v1/workflow/fetch/" + theirs).then().statusCode(200).body("name", equalTo("Theirs"));
    }

    @Test
    void foldersAreFlatUniqueAndUnfileOnDelete() {
        long wf = create(key, "Filed", definition("p"));
        long folder = as(key).body(Map.of("name", "  Sales  ")).post("/api/v1/folder/").then().statusCode(200)
                .body("name", equalTo("Sales")).extract().jsonPath().getLong("id");
        as(key).body(Map.of("name", "SALES")).post("/api/v1/folder/").then().statusCode(409)
                .body("detail", equalTo("A folder with this name already exists"));
        as(key).body(Map.of("name", "x".repeat(101))).post("/api/v1/folder/").then().statusCode(422);
        as(key).body(Map.of("name", "   ")).post("/api/v1/folder/").then().statusCode(422);
        as(otherKey).body(Map.of("name", "Sales")).post("/api/v1/folder/").then().statusCode(200);
        as(key).body(Map.of("name", "Renamed")).put("/api/v1/folder/" + folder).then().statusCode(200)
                .body("name", equalTo("Renamed"));
        as(otherKey).body(Map.of("name", "Mine")).put("/api/v1/folder/" + folder).then().statusCode(404);
        as(otherKey).delete("/api/v1/folder/" + folder).then().statusCode(404);
        as(key).body(Map.of("folder_id", folder)).put("/api/v1/workflow/" + wf + "/folder").then().statusCode(200)
                .body("folder_id", equalTo((int) folder));
        long otherFolder = as(otherKey).get("/api/v1/folder/").then().extract().jsonPath().getLong("[0].id");
        as(key).body(Map.of("folder_id", otherFolder)).put("/api/v1/workflow/" + wf + "/folder").then().statusCode(404)
                .body("detail", equalTo("Folder not found"));
        as(key).get("/api/v1/folder/").then().statusCode(200).body("name", equalTo(List.of("Renamed")));
        as(key).delete("/api/v1/folder/" + folder).then().statusCode(200);
        as(key).get("/api/v1/workflow/fetch").then().statusCode(200).body("[0].folder_id", nullValue())
                .body("[0].id", equalTo((int) wf));
    }

    @Test
    void templatesArePublicAndCopyIntoTheCallersOrganization() {
        given().get("/api/v1/workflow/templates").then().statusCode(200)
                .body("size()", equalTo(3)).body("[0].template_name", equalTo("Appointment reminder"))
                .body("[0].template_json.nodes", hasSize(3));
        as(key).body(Map.of("template_id", 2, "workflow_name", "My leads")).post("/api/v1/workflow/templates/duplicate")
                .then().statusCode(200).body("name", equalTo("My leads")).body("version_status", equalTo("published"));
        as(key).body(Map.of("template_id", 99, "workflow_name", "x")).post("/api/v1/workflow/templates/duplicate")
                .then().statusCode(404).body("detail", equalTo("Template not found"));
        long generated = as(key).body(Map.of("call_type", "inbound", "use_case", "Pizza orders",
                "activity_description", "take an order")).post("/api/v1/workflow/create/template").then().statusCode(200)
                .body("name", equalTo("Pizza orders")).extract().jsonPath().getLong("id");
        as(key).post("/api/v1/workflow/" + generated + "/validate").then().statusCode(200).body("is_valid", equalTo(true));
        as(key).body(Map.of("call_type", "sideways", "use_case", "x", "activity_description", "y"))
                .post("/api/v1/workflow/create/template").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "call_type")));
    }

    @Test
    void nodeTypesDescribeEveryFieldFromTheValidatorsRegistry() {
        as(key).get("/api/v1/node-types").then().statusCode(200).body("spec_version", notNullValue())
                .body("node_types.name", equalTo(List.of("startCall", "agentNode", "endCall", "globalNode", "trigger",
                        "webhook", "qa")));
        as(key).get("/api/v1/node-types/trigger").then().statusCode(200)
                .body("properties.find { it.name == 'trigger_path' }.max_length", equalTo(36))
                .body("properties.find { it.name == 'enabled' }.default", equalTo(true))
                .body("graph_constraints.max_instances", equalTo(1));
        as(key).get("/api/v1/node-types/agentNode").then().statusCode(200)
                .body("properties.find { it.name == 'prompt' }.required", equalTo(true))
                .body("graph_constraints.min_incoming", equalTo(1));
        as(key).get("/api/v1/node-types/teleporter").then().statusCode(404)
                .body("detail", equalTo("Unknown node type: 'teleporter'"));
    }
}
