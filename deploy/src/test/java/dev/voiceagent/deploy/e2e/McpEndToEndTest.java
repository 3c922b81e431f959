package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The dashboard's MCP endpoint, driven by the MCP Java SDK's own client over streamable HTTP with an organization's
 * API key: an assistant lists the tools, reads the node types and the guide, creates and saves a workflow (validated
 * as the API validates it), reads it back, creates an HTTP tool and searches the documentation; another
 * organization's workflow is not found, and an anonymous request is a 401.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class McpEndToEndTest {

    private static McpSyncClient client(String key) {
        HttpClientStreamableHttpTransport transport = HttpClientStreamableHttpTransport.builder("http://localhost:8081")
                .endpoint("/api/v1/mcp/").requestBuilder(HttpRequest.newBuilder().header("X-API-Key", key)).build();
        McpSyncClient client = McpClient.sync(transport).requestTimeout(Duration.ofSeconds(20)).build();
        client.initialize();
        return client;
    }

    private static String text(McpSchema.CallToolResult result) {
        return ((McpSchema.TextContent) result.content().getFirst()).text();
    }

    private static Map<String, Object> definition(String prompt) {
        return Map.of("nodes", List.of(
                        Map.of("id", "start", "type", "startCall", "position", Map.of("x", 0, "y", 0), "data",
                                Map.of("name", "Start", "prompt", prompt, "greeting", "Hello from Acme.")),
                        Map.of("id", "end", "type", "endCall", "position", Map.of("x", 0, "y", 200), "data",
                                Map.of("name", "Goodbye", "prompt", "Say goodbye."))),
                "edges", List.of(Map.of("id", "e1", "source", "start", "target", "end", "data",
                        Map.of("label", "Done", "condition", "The caller is done"))));
    }

    @Test
    void anAssistantBuildsAnAgentThroughTheMcpEndpointAsTheOrganizationWhoseKeyItHolds() {
        Api.Account account = Api.signUp("mcp");
        String key = Api.createKey(account, "k");
        Api.Account other = Api.signUp("mcp-other");
        String otherKey = Api.createKey(other, "k");
        long theirs = given().header("X-API-Key", otherKey).contentType(ContentType.JSON).body(Map.of("name",
                "Theirs", "workflow_definition", definition("Not yours."))).post("/api/v1/workflow/create/definition")
                .then().statusCode(200).extract().jsonPath().getLong("id");

        try (McpSyncClient client = client(key)) {
            assertThat(client.listTools().tools()).extracting(McpSchema.Tool::name).containsExactlyInAnyOrder(
                    "list_workflows", "get_workflow", "create_workflow", "save_workflow", "list_node_types",
                    "search_docs", "create_http_tool", "voice_prompting_guide");
            assertThat(text(client.callTool(new McpSchema.CallToolRequest("list_node_types", Map.of()))))
                    .contains("startCall", "endCall");
            assertThat(text(client.callTool(new McpSchema.CallToolRequest("voice_prompting_guide", Map.of()))))
                    .startsWith("# Writing prompts for voice agents");

            // validated as the API validates: what it refuses is refused here, with the reason
            given().header("X-API-Key", key).contentType(ContentType.JSON).body(Map.of("name", " ",
                    "workflow_definition", definition("x"))).post("/api/v1/workflow/create/definition").then()
                    .statusCode(org.hamcrest.Matchers.greaterThanOrEqualTo(400));
            McpSchema.CallToolResult refused = client.callTool(new McpSchema.CallToolRequest("create_workflow",
                    Map.of("name", " ", "workflow_definition", definition("x"))));
            assertThat(refused.isError()).isTrue();
            assertThat(text(refused)).isNotBlank();

            McpSchema.CallToolResult created = client.callTool(new McpSchema.CallToolRequest("create_workflow",
                    Map.of("name", "Orders", "workflow_definition", definition("You help with orders."))));
            assertThat(created.isError()).as(text(created)).isFalse();
            long id = new JsonPath(text(created)).getLong("id");
            assertThat(text(client.callTool(new McpSchema.CallToolRequest("list_workflows", Map.of()))))
                    .contains("\"Orders\"").doesNotContain("Theirs");
            McpSchema.CallToolResult saved = client.callTool(new McpSchema.CallToolRequest("save_workflow",
                    Map.of("workflow_id", id, "workflow_definition", definition("You help with returns."))));
            assertThat(saved.isError()).as(text(saved)).isFalse();
            assertThat(text(client.callTool(new McpSchema.CallToolRequest("get_workflow", Map.of("workflow_id", id)))))
                    .contains("You help with returns.");
            // the same workflow through the REST API
            given().header("X-API-Key", key).get("/api/v1/workflow/fetch/" + id).then().statusCode(200);

            McpSchema.CallToolResult notFound = client.callTool(new McpSchema.CallToolRequest("get_workflow",
                    Map.of("workflow_id", theirs)));
            assertThat(notFound.isError()).as("another organization's workflow").isTrue();
            assertThat(text(notFound)).containsIgnoringCase("not found");

            McpSchema.CallToolResult tool = client.callTool(new McpSchema.CallToolRequest("create_http_tool",
                    Map.of("name", "Order status", "description", "Looks an order up", "method", "GET", "url",
                            "https://api.example.com/orders/{{order_id}}", "parameters", List.of(Map.of("name",
                                    "order_id", "type", "string", "description", "The order number", "required",
                                    true)))));
            assertThat(tool.isError()).as(text(tool)).isFalse();
            given().header("X-API-Key", key).get("/api/v1/tools/").then().statusCode(200)
                    .body("name", org.hamcrest.Matchers.hasItem("Order status"));

            McpSchema.CallToolResult docs = client.callTool(new McpSchema.CallToolRequest("search_docs",
                    Map.of("query", "How do I start a campaign?")));
            assertThat(docs.isError()).as(text(docs)).isFalse();
            assertThat(text(docs)).contains("sources");
        }
        given().contentType(ContentType.JSON).body("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}")
                .post("/api/v1/mcp").then().statusCode(401);
    }
}
