package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeToolServers;
import dev.voiceagent.deploy.support.FakeToolServers.Received;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Credentials and tools end to end with two organizations: sealed credentials that are never shown, definitions
 * checked for their category, a test that performs the real request (placeholders, query, body, the credential's
 * header) against a local API, the address guard on it, and an MCP server listed through the streamable HTTP
 * transport.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class ToolsEndToEndTest {

    private static FakeToolServers api;

    @Inject
    AgroalDataSource dataSource;

    private String key;
    private String otherKey;

    @BeforeAll
    static void startApi() {
        api = new FakeToolServers();
    }

    @AfterAll
    static void stopApi() {
        api.close();
    }

    @BeforeEach
    void organizations() {
        api.received.clear();
        key = Api.createKey(Api.signUp("tools"), "k");
        otherKey = Api.createKey(Api.signUp("tools-other"), "k");
    }

    private RequestSpecification as() {
        return as(key);
    }

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    private String credential(String name, String type, Map<String, Object> data) {
        return as().body(Map.of("name", name, "credential_type", type, "credential_data", data))
                .post("/api/v1/credentials/").then().statusCode(200).extract().path("uuid");
    }

    private JsonPath httpTool(String name, Map<String, Object> config) {
        return as().body(Map.of("name", name, "category", "http_api", "definition",
                        Map.of("schema_version", 1, "type", "http_api", "config", config)))
                .post("/api/v1/tools/").then().statusCode(200).extract().jsonPath();
    }

    @Test
    void anHttpToolSavedWithoutItsUrlIsKeptButNeitherTestedNorGivenToAnAgentUntilItHasOne() {
        // what the reference dashboard's create dialog posts
        String uuid = httpTool("Draft lookup", Map.of("method", "GET", "url", "")).getString("tool_uuid");
        as().get("/api/v1/tools/" + uuid).then().statusCode(200).body("definition.config.url", equalTo(""));
        as().post("/api/v1/tools/" + uuid + "/test").then().statusCode(400)
                .body("detail", org.hamcrest.Matchers.containsString("has no URL yet"));
        Map<String, Object> start = new LinkedHashMap<>(Map.of("name", "Start", "prompt", "Help.",
                "tool_uuids", List.of(uuid)));
        long workflow = as().body(Map.of("name", "Uses a draft tool", "workflow_definition", Map.of("nodes",
                        List.of(Map.of("id", "1", "type", "startCall", "position", Map.of("x", 0, "y", 0), "data",
                                start)), "edges", List.of()))).post("/api/v1/workflow/create/definition").then()
                .statusCode(200).extract().jsonPath().getLong("id");
        assertThat(as().post("/api/v1/workflow/" + workflow + "/validate").then().extract().asString())
                .as("the agent is told why, as for an archived tool").contains("has no URL yet");
        // filled in on its page: a tool like any other
        as().body(Map.of("definition", Map.of("schema_version", 1, "type", "http_api", "config", Map.of("method",
                "GET", "url", "https://api.example.com/lookup")))).put("/api/v1/tools/" + uuid).then().statusCode(200)
                .body("definition.config.url", equalTo("https://api.example.com/lookup"));
        // a URL that is not one is still refused where it is
        as().body(Map.of("name", "Bad", "category", "http_api", "definition", Map.of("schema_version", 1, "type",
                "http_api", "config", Map.of("method", "GET", "url", "  ")))).post("/api/v1/tools/").then()
                .statusCode(422);
    }

    @Test
    void theStatusFilterTakesACommaSeparatedListAndArchivedToolsAreListedOnlyWhenAsked() {
        String active = httpTool("Active one", Map.of("method", "GET", "url", "https://a.example.com/")).getString(
                "tool_uuid");
        String archived = httpTool("Archived one", Map.of("method", "GET", "url", "https://b.example.com/"))
                .getString("tool_uuid");
        as().delete("/api/v1/tools/" + archived).then().statusCode(200);
        as().get("/api/v1/tools/").then().statusCode(200).body("tool_uuid", hasItem(active))
                .body("tool_uuid", not(hasItem(archived)));
        as().get("/api/v1/tools/?status=active,archived").then().statusCode(200)
                .body("tool_uuid", hasItem(active)).body("tool_uuid", hasItem(archived));
        as().get("/api/v1/tools/?status=archived").then().statusCode(200).body("tool_uuid", hasItem(archived))
                .body("tool_uuid", not(hasItem(active)));
        as().get("/api/v1/tools/?status=active,gone").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("query", "status")));
        as().get("/api/v1/tools/?status=active,").then().statusCode(422);
    }

    @Test
    void credentialsAreSealedAtRestNeverShownAndUniqueByName() {
        String uuid = credential("CRM key", "api_key", Map.of("header_name", "X-Crm-Key", "api_key", "crm-secret-9931"));
        String body = as().get("/api/v1/credentials/" + uuid).then().statusCode(200)
                .body("name", equalTo("CRM key")).body("credential_type", equalTo("api_key"))
                .extract().asString();
        assertThat(body).doesNotContain("crm-secret-9931").doesNotContain("credential_data");
        assertThat(as().get("/api/v1/credentials/").then().statusCode(200).extract().asString())
                .doesNotContain("crm-secret");
        String sealed = new Sql(dataSource).queryString("SELECT sealed_data FROM credentials WHERE uuid = ?", uuid);
        assertThat(sealed).isNotBlank().doesNotContain("crm-secret-9931").doesNotContain("X-Crm-Key");

        as().body(Map.of("name", "CRM key", "credential_type", "bearer_token", "credential_data", Map.of("token", "t")))
                .post("/api/v1/credentials/").then().statusCode(409).body("detail", containsString("already exists"));
        as().body(Map.of("name", "half", "credential_type", "basic_auth", "credential_data", Map.of("username", "u")))
                .post("/api/v1/credentials/").then().statusCode(400).body("detail", containsString("password"));
        as().body(Map.of("name", "odd", "credential_type", "oauth", "credential_data", Map.of()))
                .post("/api/v1/credentials/").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "credential_type")));

        // a rename keeps the sealed data: the tool still authenticates with it
        as().body(Map.of("name", "CRM key (prod)")).put("/api/v1/credentials/" + uuid).then().statusCode(200)
                .body("name", equalTo("CRM key (prod)"));
        String tool = httpTool("Order status", Map.of("method", "GET", "url", api.base + "/orders/{{order_id}}",
                "credential_uuid", uuid, "parameters", List.of(Map.of("name", "order_id", "type", "string",
                        "description", "The order", "required", true)))).getString("tool_uuid");
        as().body(Map.of("llm_params", Map.of("order_id", "A-17"))).post("/api/v1/tools/" + tool + "/test")
                .then().statusCode(200).body("status", equalTo("success"));
        assertThat(api.at("/orders/A-17").getFirst().header("X-Crm-Key")).isEqualTo("crm-secret-9931");

        // another organization sees none of it
        as(otherKey).get("/api/v1/credentials/" + uuid).then().statusCode(404);
        as(otherKey).delete("/api/v1/credentials/" + uuid).then().statusCode(404);
        assertThat(as(otherKey).get("/api/v1/credentials/").then().statusCode(200).extract().jsonPath()
                .getList("uuid")).isEmpty();

        // in use: the delete names the tool; archived, the credential can go
        as().delete("/api/v1/credentials/" + uuid).then().statusCode(409).body("detail", containsString("Order status"));
        as().delete("/api/v1/tools/" + tool).then().statusCode(200).body("status", equalTo("archived"));
        as().delete("/api/v1/credentials/" + uuid).then().statusCode(200).body("status", equalTo("deleted"))
                .body("uuid", equalTo(uuid));
        as().get("/api/v1/credentials/" + uuid).then().statusCode(404);
        // the name is free again
        credential("CRM key (prod)", "none", Map.of());
    }

    @Test
    void aDefinitionIsCheckedForItsCategoryAndItsCredentials() {
        as().body(Map.of("name", "x", "category", "end_call", "definition", Map.of("schema_version", 1, "type",
                        "http_api", "config", Map.of("method", "GET", "url", "https://api.example.com"))))
                .post("/api/v1/tools/").then().statusCode(422).body("detail.loc", hasItem(List.of("body", "category")));
        as().body(Map.of("name", "x", "definition", Map.of("schema_version", 1, "type", "http_api", "config",
                        Map.of("method", "FETCH", "url", "ftp://example.com", "timeout_ms", 60_000))))
                .post("/api/v1/tools/").then().statusCode(422)
                .body("detail.loc", hasItem(List.of("body", "definition", "config", "method")))
                .body("detail.loc", hasItem(List.of("body", "definition", "config", "url")))
                .body("detail.loc", hasItem(List.of("body", "definition", "config", "timeout_ms")));
        String foreign = given().header("X-API-Key", otherKey).contentType(ContentType.JSON)
                .body(Map.of("name", "theirs", "credential_type", "bearer_token", "credential_data",
                        Map.of("token", "their-token")))
                .post("/api/v1/credentials/").then().statusCode(200).extract().path("uuid");
        as().body(Map.of("name", "x", "definition", Map.of("schema_version", 1, "type", "http_api", "config",
                        Map.of("method", "GET", "url", "https://api.example.com", "credential_uuid", foreign))))
                .post("/api/v1/tools/").then().statusCode(404)
                .body("detail", equalTo("Credential not found: " + foreign));

        JsonPath created = httpTool("Lookup", Map.of("method", "post", "url", "https://api.example.com/lookup"));
        assertThat(created.getString("definition.config.method")).isEqualTo("POST");
        assertThat(created.getInt("definition.config.timeout_ms")).isEqualTo(5_000);
        assertThat(created.getString("icon")).isEqualTo("globe");
        assertThat(created.getString("icon_color")).isEqualTo("#3B82F6");
        assertThat(created.getString("status")).isEqualTo("active");
        assertThat(created.getLong("created_by.id")).isPositive();
        String uuid = created.getString("tool_uuid");
        as().body(Map.of("name", "Hang up", "category", "end_call", "definition", Map.of("schema_version", 1,
                "type", "end_call", "config", Map.of("messageType", "custom", "customMessage", "Goodbye!"))))
                .post("/api/v1/tools/").then().statusCode(200).body("definition.config.endCallReason", equalTo(false));

        as().get("/api/v1/tools/?category=end_call").then().statusCode(200).body("name", equalTo(List.of("Hang up")));
        as().get("/api/v1/tools/?category=phone").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("query", "category")));
        as().body(Map.of("status", "draft", "description", "Looks a customer up")).put("/api/v1/tools/" + uuid)
                .then().statusCode(200).body("status", equalTo("draft"))
                .body("definition.config.url", equalTo("https://api.example.com/lookup"));
        as().get("/api/v1/tools/?status=draft").then().statusCode(200).body("tool_uuid", equalTo(List.of(uuid)));
        as().delete("/api/v1/tools/" + uuid).then().statusCode(200);
        as().get("/api/v1/tools/?status=active").then().statusCode(200).body("tool_uuid", not(hasItem(uuid)));
        as().post("/api/v1/tools/" + uuid + "/unarchive").then().statusCode(200).body("status", equalTo("active"));

        as(otherKey).get("/api/v1/tools/" + uuid).then().statusCode(404);
        as(otherKey).body(Map.of("name", "mine")).put("/api/v1/tools/" + uuid).then().statusCode(404);
        as(otherKey).post("/api/v1/tools/" + uuid + "/test").then().statusCode(404);
        as(otherKey).get("/api/v1/tools/").then().statusCode(200).body("tool_uuid", not(hasItem(uuid)));
    }

    @Test
    void aTestPerformsTheRealRequestWithItsTemplatesAndTheCredential() {
        String bearer = credential("Bearer", "bearer_token", Map.of("token", "tok-55aa"));
        String basic = credential("Basic", "basic_auth", Map.of("username", "ops", "password", "p@ss"));
        String get = httpTool("Order", Map.of("method", "GET", "url", api.base + "/orders/{{order_id}}",
                "credential_uuid", bearer, "headers", Map.of("X-Trace", "t-{{order_id}}"),
                "parameters", List.of(Map.of("name", "order_id", "type", "string", "description", "id",
                        "required", true), Map.of("name", "verbose", "type", "boolean", "description", "more"))))
                .getString("tool_uuid");
        JsonPath got = as().body(Map.of("llm_params", Map.of("order_id", "A/17 b", "verbose", true)))
                .post("/api/v1/tools/" + get + "/test").then().statusCode(200).extract().jsonPath();
        assertThat(got.getString("status")).isEqualTo("success");
        assertThat(got.getInt("status_code")).isEqualTo(200);
        assertThat(got.getString("data.status")).isEqualTo("shipped");
        assertThat(got.getString("request_method")).isEqualTo("GET");
        assertThat(got.getString("request_url")).isEqualTo(api.base + "/orders/A%2F17%20b?verbose=true");
        assertThat(got.getString("request_headers.Authorization")).isEqualTo("********");
        assertThat(got.getString("request_params.verbose")).isEqualTo("true");
        assertThat(got.getString("headers.content-type")).isEqualTo("application/json");
        Received sent = api.received.getLast();
        assertThat(sent.method()).isEqualTo("GET");
        assertThat(sent.query()).isEqualTo("verbose=true");
        assertThat(sent.header("Authorization")).isEqualTo("Bearer tok-55aa");
        assertThat(sent.header("X-Trace")).isEqualTo("t-A/17 b");

        String post = httpTool("Create", Map.of("method", "POST", "url", api.base + "/echo", "credential_uuid", basic,
                "parameters", List.of(Map.of("name", "qty", "type", "number", "description", "how many",
                        "required", true)),
                "preset_parameters", List.of(Map.of("name", "channel", "type", "string",
                        "value_template", "{{initial_context.channel}}")),
                "body_template", Map.of("order", Map.of("quantity", "{{qty}}", "source", "{{channel}}"))))
                .getString("tool_uuid");
        JsonPath posted = as().body(Map.of("arguments", Map.of("qty", 3), "preset_params", Map.of("channel", "phone")))
                .post("/api/v1/tools/" + post + "/test").then().statusCode(200).extract().jsonPath();
        assertThat(posted.getInt("status_code")).isEqualTo(201);
        assertThat(posted.getInt("data.received.order.quantity")).isEqualTo(3);
        assertThat(posted.getString("data.received.order.source")).isEqualTo("phone");
        assertThat(posted.getString("headers.x-echo")).isEqualTo("yes");
        assertThat(api.at("/echo").getFirst().header("Authorization"))
                .isEqualTo("Basic " + Base64.getEncoder().encodeToString("ops:p@ss".getBytes()));
        assertThat(api.at("/echo").getFirst().header("Content-Type")).startsWith("application/json");

        // a missing required argument is the caller's mistake
        as().body(Map.of("llm_params", Map.of())).post("/api/v1/tools/" + get + "/test").then().statusCode(400)
                .body("detail", containsString("order_id"));
    }

    @Test
    void anAnswerOfAnyStatusIsDescribedAndAFailingApiIsA502() {
        String missing = httpTool("Missing", Map.of("method", "GET", "url", api.base + "/missing")).getString("tool_uuid");
        as().post("/api/v1/tools/" + missing + "/test").then().statusCode(200).body("status", equalTo("error"))
                .body("status_code", equalTo(404)).body("data.error", equalTo("no such order"))
                .body("hint", containsString("URL"));

        String big = httpTool("Big", Map.of("method", "GET", "url", api.base + "/big")).getString("tool_uuid");
        JsonPath cut = as().post("/api/v1/tools/" + big + "/test").then().statusCode(200).extract().jsonPath();
        assertThat(cut.getBoolean("truncated")).isTrue();
        assertThat(cut.getString("body")).hasSize(1 << 20);

        String slow = httpTool("Slow", Map.of("method", "GET", "url", api.base + "/slow", "timeout_ms", 500))
                .getString("tool_uuid");
        long started = System.nanoTime();
        as().post("/api/v1/tools/" + slow + "/test").then().statusCode(502).body("detail", containsString("timed out"));
        assertThat((System.nanoTime() - started) / 1_000_000).isLessThan(2_500);

        String gone = httpTool("Gone", Map.of("method", "GET", "url", "http://127.0.0.1:9/nothing-listens"))
                .getString("tool_uuid");
        as().post("/api/v1/tools/" + gone + "/test").then().statusCode(502)
                .body("detail", containsString("could not be reached"));

        String notHttp = as().body(Map.of("name", "Bye", "category", "end_call", "definition", Map.of("schema_version",
                1, "type", "end_call", "config", Map.of()))).post("/api/v1/tools/").then().statusCode(200)
                .extract().path("tool_uuid");
        as().post("/api/v1/tools/" + notHttp + "/test").then().statusCode(400)
                .body("detail", containsString("Only http_api tools"));
    }

    @Test
    void theAddressGuardRefusesPrivateAndMetadataAddressesAndRedirectsToThem() {
        for (String url : List.of("http://169.254.169.254/latest/meta-data/", "http://10.0.0.8/internal",
                "http://192.168.1.1/", "http://[::1]:8080/", "http://100.100.100.200/")) {
            String uuid = httpTool("Guarded " + url, Map.of("method", "GET", "url", url)).getString("tool_uuid");
            as().post("/api/v1/tools/" + uuid + "/test").then().statusCode(400)
                    .body("detail", containsString("not allowed"));
        }
        String redirect = httpTool("Redirect", Map.of("method", "GET", "url", api.base + "/to-private"))
                .getString("tool_uuid");
        as().post("/api/v1/tools/" + redirect + "/test").then().statusCode(400)
                .body("detail", containsString("10.1.2.3"));
        assertThat(api.at("/to-private")).hasSize(1);
    }

    @Test
    void anMcpServersToolsAreListedThroughTheStreamableHttpTransport() {
        String credential = credential("MCP token", "bearer_token", Map.of("token", "mcp-tok"));
        String uuid = as().body(Map.of("name", "CRM", "category", "mcp", "definition", Map.of("schema_version", 1,
                        "type", "mcp", "config", Map.of("url", api.base + "/mcp", "credential_uuid", credential,
                                "tools_filter", List.of("lookup_customer", "delete_everything")))))
                .post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");

        JsonPath refreshed = as().post("/api/v1/tools/" + uuid + "/mcp/refresh").then().statusCode(200)
                .body("tool_uuid", equalTo(uuid)).body("error", nullValue()).extract().jsonPath();
        assertThat(refreshed.getList("discovered_tools.name")).containsExactly("lookup_customer", "delete_everything");
        assertThat(refreshed.getString("discovered_tools[0].input_schema.properties.phone.type")).isEqualTo("string");
        as().get("/api/v1/tools/" + uuid).then().statusCode(200)
                .body("definition.config.discovered_tools.name", equalTo(List.of("lookup_customer",
                        "delete_everything")));

        List<Received> calls = api.at("/mcp").stream().filter(r -> r.method().equals("POST")).toList();
        assertThat(calls).extracting(r -> JsonPath.from(r.body()).getString("method"))
                .containsExactly("initialize", "notifications/initialized", "tools/list", "tools/list");
        assertThat(calls).allSatisfy(r -> assertThat(r.header("Authorization")).isEqualTo("Bearer mcp-tok"));
        assertThat(calls.getFirst().header("Mcp-Session-Id")).isNull();
        assertThat(calls.getFirst().header("Accept")).contains("application/json").contains("text/event-stream");
        assertThat(calls.subList(1, 4)).allSatisfy(r -> {
            assertThat(r.header("Mcp-Session-Id")).isEqualTo(FakeToolServers.SESSION);
            assertThat(r.header("MCP-Protocol-Version")).isNotBlank();
        });
        assertThat(JsonPath.from(calls.get(3).body()).getString("params.cursor")).isEqualTo("page-2");
        // the session is closed when done
        assertThat(api.at("/mcp").stream().filter(r -> r.method().equals("DELETE"))).hasSize(1);

        // an update that sends the definition back without its discovered tools keeps them
        as().body(Map.of("definition", Map.of("schema_version", 1, "type", "mcp", "config", Map.of("url",
                        api.base + "/mcp", "credential_uuid", credential, "timeout_secs", 10))))
                .put("/api/v1/tools/" + uuid).then().statusCode(200)
                .body("definition.config.discovered_tools.size()", equalTo(2));

        String broken = as().body(Map.of("name", "Broken CRM", "category", "mcp", "definition", Map.of(
                        "schema_version", 1, "type", "mcp", "config", Map.of("url", api.base + "/mcp-broken"))))
                .post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");
        as().post("/api/v1/tools/" + broken + "/mcp/refresh").then().statusCode(502)
                .body("detail", containsString("CRM database is down"));
        String guarded = as().body(Map.of("name", "Internal", "category", "mcp", "definition", Map.of(
                        "schema_version", 1, "type", "mcp", "config", Map.of("url", "http://10.9.9.9/mcp"))))
                .post("/api/v1/tools/").then().statusCode(200).extract().path("tool_uuid");
        as().post("/api/v1/tools/" + guarded + "/mcp/refresh").then().statusCode(400)
                .body("detail", containsString("not allowed"));
        as().post("/api/v1/tools/" + broken + "/test").then().statusCode(400);
        as(otherKey).post("/api/v1/tools/" + uuid + "/mcp/refresh").then().statusCode(404);
    }
}
