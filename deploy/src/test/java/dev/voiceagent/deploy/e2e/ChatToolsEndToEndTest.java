package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeToolServers;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A node's tools in a text chat on the simulator language model: an http_api tool makes its real request with
 * the model's arguments and the credential, a calculator computes, an end_call tool ends the session with its
 * message; and the workflow checks for a node's tools (unique names, no collision with a transition, existing and
 * not archived).
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ChatToolsEndToEndTest {

    private static FakeToolServers api;
    private String key;

    @BeforeAll
    static void startApi() {
        api = new FakeToolServers();
    }

    @AfterAll
    static void stopApi() {
        api.close();
    }

    @BeforeEach
    void organization() {
        api.received.clear();
        key = Api.createKey(Api.signUp("chat-tools"), "k");
        TextChatEndToEndTest.useSimulator(key);
    }

    private RequestSpecification as() {
        return given().header("X-API-Key", key).contentType(ContentType.JSON);
    }

    private String tool(String name, String type, Map<String, Object> config) {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("schema_version", 1);
        definition.put("type", type);
        if (config != null) {
            definition.put("config", config);
        }
        return as().body(Map.of("name", name, "category", type, "definition", definition)).post("/api/v1/tools/")
                .then().statusCode(200).extract().path("tool_uuid");
    }

    private static Map<String, Object> definition(List<String> startTools, String edgeLabel) {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("nodes", new ArrayList<>(List.of(
                WorkflowEndToEndTest.node("start", "startCall", Map.of("name", "Start", "prompt",
                        "Help the caller with their order.", "tool_uuids", startTools)),
                WorkflowEndToEndTest.node("booking", "agentNode", Map.of("name", "Booking", "prompt", "Book it.")),
                WorkflowEndToEndTest.node("end", "endCall", Map.of("name", "End", "prompt", "Bye.")))));
        definition.put("edges", new ArrayList<>(List.of(
                Map.of("id", "e1", "source", "start", "target", "booking", "data", Map.of("label", edgeLabel,
                        "condition", "The caller wants a booking")),
                Map.of("id", "e2", "source", "booking", "target", "end", "data", Map.of("label", "Done",
                        "condition", "Finished")))));
        return definition;
    }

    private long workflow(Map<String, Object> definition) {
        return as().body(Map.of("name", "Orders", "workflow_definition", definition))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    @Test
    void aNodesToolsAreOfferedAndRunDuringAChat() {
        String credential = as().body(Map.of("name", "Orders API", "credential_type", "api_key", "credential_data",
                        Map.of("header_name", "X-Orders-Key", "api_key", "orders-secret")))
                .post("/api/v1/credentials/").then().statusCode(200).extract().path("uuid");
        String orders = tool("Order status", "http_api", Map.of("method", "GET", "url", api.base + "/orders/{{order_id}}",
                "credential_uuid", credential, "parameters", List.of(Map.of("name", "order_id", "type", "string",
                        "description", "The order number", "required", true)),
                "preset_parameters", List.of(Map.of("name", "customer", "type", "string",
                        "value_template", "{{initial_context.customer_id}}"))));
        String calculator = tool("Calculator", "calculator", null);
        String hangUp = tool("Hang up", "end_call", Map.of("messageType", "custom", "customMessage",
                "Goodbye {{customer_id}}!"));
        long workflow = workflow(definition(List.of(orders, calculator, hangUp), "Book"));
        String sessions = "/api/v1/workflow/" + workflow + "/text-chat/sessions";
        long run = as().body(Map.of("initial_context", Map.of("customer_id", "C-9"))).post(sessions).then()
                .statusCode(200).extract().jsonPath().getLong("workflow_run_id");

        JsonPath asked = as().body(Map.of("text", "What is my order status? My order id is A-17"))
                .post(sessions + "/" + run + "/messages").then().statusCode(200).extract().jsonPath();
        String answer = asked.getString("session_data.turns[1].assistant_message.text");
        assertThat(answer).startsWith("The order_status tool answered:").contains("shipped");
        assertThat(asked.getList("session_data.turns[1].events.type")).contains("tool_call_started", "tool_call_result");
        FakeToolServers.Received sent = api.at("/orders/A-17").getFirst();
        assertThat(sent.header("X-Orders-Key")).isEqualTo("orders-secret");
        assertThat(sent.query()).isEqualTo("customer=C-9");

        JsonPath computed = as().body(Map.of("text", "Use the calculator: expression is (12 * 3) + 4 / 8"))
                .post(sessions + "/" + run + "/messages").then().statusCode(200).extract().jsonPath();
        assertThat(computed.getString("session_data.turns[2].assistant_message.text"))
                .isEqualTo("The calculator tool answered: {\"result\":\"36.5\"}");

        JsonPath ended = as().body(Map.of("text", "Please hang up now")).post(sessions + "/" + run + "/messages")
                .then().statusCode(200).extract().jsonPath();
        assertThat(ended.getBoolean("is_completed")).isTrue();
        assertThat(ended.getString("gathered_context.call_disposition")).isEqualTo("end_call");
        assertThat(ended.getString("session_data.turns[3].assistant_message.text")).isEqualTo("Goodbye C-9!");
        as().body(Map.of("text", "hello?")).post(sessions + "/" + run + "/messages").then().statusCode(400);
    }

    @Test
    void aToolThatFailsIsTheModelsAnswerNotTheTurnsFailure() {
        String guarded = tool("Order status", "http_api", Map.of("method", "GET", "url", "http://10.0.0.9/orders",
                "parameters", List.of(Map.of("name", "order_id", "type", "string", "description", "id"))));
        long workflow = workflow(definition(List.of(guarded), "Book"));
        String sessions = "/api/v1/workflow/" + workflow + "/text-chat/sessions";
        long run = as().body(Map.of()).post(sessions).then().statusCode(200).extract().jsonPath()
                .getLong("workflow_run_id");
        String answer = as().body(Map.of("text", "order status please, order id is 5"))
                .post(sessions + "/" + run + "/messages").then().statusCode(200).extract()
                .path("session_data.turns[1].assistant_message.text");
        assertThat(answer).startsWith("The order_status tool answered:").contains("not allowed");
    }

    @Test
    void theWorkflowChecksANodesTools() {
        String a = tool("Lookup order", "http_api", Map.of("method", "GET", "url", "https://api.example.com/a"));
        String b = tool("Lookup-Order", "http_api", Map.of("method", "GET", "url", "https://api.example.com/b"));
        String book = tool("Book", "end_call", Map.of());
        String archived = tool("Old", "calculator", null);
        as().delete("/api/v1/tools/" + archived).then().statusCode(200);
        long workflow = workflow(definition(List.of(a, b, book, archived, "no-such-tool"), "Book"));
        JsonPath errors = as().post("/api/v1/workflow/" + workflow + "/validate").then().extract().jsonPath();
        String all = errors.prettify();
        assertThat(all).contains("Tool name \\\"lookup_order\\\" is duplicated for this node")
                .contains("Transition tool name \\\"book\\\" collides with the tool \\\"Book\\\"")
                .contains("Tool \\\"Old\\\" is archived").contains("Tool no-such-tool does not exist");
        // a publish is refused for the same reasons
        as().body(Map.of("workflow_definition", definition(List.of(a, b), "Book"))).put("/api/v1/workflow/" + workflow)
                .then().statusCode(200);
        as().post("/api/v1/workflow/" + workflow + "/publish").then().statusCode(422);

        long fine = workflow(definition(List.of(a, book), "Schedule"));
        as().post("/api/v1/workflow/" + fine + "/validate").then().statusCode(200);
    }
}
