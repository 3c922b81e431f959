package dev.voiceagent.deploy.safety;

import static io.restassured.RestAssured.given;

import com.fasterxml.jackson.databind.JsonNode;
import dev.voiceagent.deploy.e2e.KnowledgeBaseEndToEndTest;
import dev.voiceagent.deploy.e2e.PublicAgentEndToEndTest;
import dev.voiceagent.deploy.e2e.WorkflowEndToEndTest;
import dev.voiceagent.deploy.support.Api;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * One organization holding one of each resource the API can create, every one named with the
 * organization's marker, and the tables the safety-net suites read:
 * <ul>
 * <li>{@link #CREATORS}: for every path parameter that names a tenant's resource, which of these
 * resources fills it. A feature that adds a resource adds its creator to {@link #create} and its
 * parameter here; an operation whose path parameter has no entry fails the isolation suite.</li>
 * <li>{@link #GLOBAL_PARAMETERS}: path parameters that name no tenant's data (with why).</li>
 * <li>{@link #SAMPLES}: a valid body per operation (the baseline the bad-input suite mutates and the
 * body the isolation suite sends); operations not listed get one generated from their schema.</li>
 * </ul>
 */
final class TenantFixture {

    /** Path parameter -> the resource (by name in {@link #resources}) it takes, given the operation's path. */
    static final Map<String, Function<String, String>> CREATORS = Map.ofEntries(
            Map.entry("workflow_id", path -> "workflow"),
            Map.entry("run_id", path -> path.contains("/text-chat/") ? "chat_run" : "run"),
            Map.entry("folder_id", path -> "folder"),
            Map.entry("campaign_id", path -> "campaign"),
            Map.entry("config_id", path -> path.contains("/trunks") ? "trunk_configuration" : "configuration"),
            Map.entry("phone_number_id", path -> "phone_number"),
            Map.entry("trunk_id", path -> "trunk"),
            Map.entry("api_key_id", path -> "spare_api_key"),
            Map.entry("service_key_id", path -> "service_key"),
            Map.entry("key", path -> "object_key"),
            Map.entry("uuid", path -> "trigger_path"),
            Map.entry("workflow_uuid", path -> "workflow_uuid"),
            Map.entry("credential_uuid", path -> "credential"),
            Map.entry("tool_uuid", path -> path.contains("/mcp/") ? "mcp_tool" : "tool"),
            Map.entry("recording_id", path -> "recording_id"),
            Map.entry("document_uuid", path -> "document"),
            Map.entry("clone_id", path -> "voice_clone"),
            Map.entry("phone_number", path -> "dnc_number"),
            Map.entry("endpoint_id", path -> "webhook_endpoint"),
            // a delivery is named under its endpoint, which decides first: the endpoint's id serves as a number
            Map.entry("delivery_id", path -> "webhook_endpoint"),
            Map.entry("id", path -> path.startsWith("/api/v1/workflow-recordings/") ? "recording" : null));

    /** Path parameters that are not a tenant's resource, and the value the suites use. */
    static final Map<String, String> GLOBAL_PARAMETERS = Map.of(
            "name", "startCall", // /node-types/{name}: the node-type registry is the same for everyone
            "provider", "openai", // /user/configurations/voices/{provider}: a provider's catalog
            // /public/download/workflow/{token}/{artifact_type}: the signed link is the credential, no tenant's id
            // (and /public/embed/config/{token}: an embed token is public, a page carries it)
            "token", "not-a-signed-link",
            "artifact_type", "transcript",
            "session_token", "emb_session_unknown"); // /public/embed/...: the session token is the credential

    /** Sample bodies that name this tenant's resources: sent by another organization they must be refused. */
    static final Set<String> BODY_REFERENCES = Set.of(
            "POST /api/v1/campaign/create", "POST /api/v1/telephony/initiate-call",
            "POST /api/v1/workflow/ambient-noise/upload-url", "POST /api/v1/telephony/simulator/inbound-call",
            "POST /api/v1/tools", "POST /api/v1/workflow-recordings",
            "POST /api/v1/knowledge-base/process-document", "POST /api/v1/voice-clones",
            "POST /api/v1/organizations/dnc/import");

    /** A tool's address the installation refuses (a private network): a test or refresh is a 400, never sent. */
    static final String GUARDED_URL = "http://10.255.255.1/api";

    /** A provider address nothing listens on: a key check fails fast, and nothing reaches the internet. */
    static final String DEAD_BASE_URL = "http://127.0.0.1:9/v1";

    static final Map<String, Function<TenantFixture, Map<String, Object>>> SAMPLES = new HashMap<>();

    static {
        sample("POST /api/v1/auth/signup", f -> Map.of("email", "s-" + UUID.randomUUID() + "@example.com",
                "password", "correct-horse-battery", "name", "Sam"));
        sample("POST /api/v1/auth/login", f -> Map.of("email", f.account.email(), "password", "correct-horse-battery"));
        sample("POST /api/v1/campaign/create", f -> Map.of("name", f.marker + " campaign 2", "workflow_id",
                f.id("workflow"), "source_type", "csv", "source_id", f.resources.get("object_key")));
        sample("PATCH /api/v1/campaign/{campaign_id}", f -> Map.of("name", f.marker + " renamed"));
        sample("POST /api/v1/campaign/{campaign_id}/redial", f -> Map.of());
        sample("POST /api/v1/folder/", f -> Map.of("name", f.marker + " folder " + f.unique()));
        sample("PUT /api/v1/folder/{folder_id}", f -> Map.of("name", f.marker + " folder " + f.unique()));
        sample("POST /api/v1/object-store/presigned-upload-url", f -> Map.of("file_name", "c.csv", "file_size", 40));
        sample("POST /api/v1/s3/presigned-upload-url", f -> Map.of("file_name", "c.csv", "file_size", 40));
        sample("PUT /api/v1/organizations/preferences", f -> Map.of("timezone", "UTC"));
        sample("POST /api/v1/organizations/telephony-configs", f -> Map.of("name", f.marker + " sim " + f.unique(),
                "config", Map.of("provider", "simulator")));
        sample("PUT /api/v1/organizations/telephony-configs/{config_id}", f -> Map.of("name", f.marker + " sim"));
        sample("POST /api/v1/organizations/telephony-configs/{config_id}/phone-numbers", f -> Map.of("address",
                f.phoneNumber(), "label", f.marker));
        sample("PUT /api/v1/organizations/telephony-configs/{config_id}/phone-numbers/{phone_number_id}",
                f -> Map.of("label", f.marker + " line"));
        sample("POST /api/v1/organizations/telephony-configs/{config_id}/trunks", f -> Map.of("name",
                f.marker + " trunk " + f.unique(), "settings", Map.of("context", "from-ai")));
        sample("PUT /api/v1/organizations/telephony-configs/{config_id}/trunks/{trunk_id}",
                f -> Map.of("name", f.marker + " trunk"));
        sample("POST /api/v1/telephony/initiate-call", f -> Map.of("workflow_id", f.id("workflow"),
                "phone_number", f.phoneNumber()));
        // rings organization A's simulator number (no inbound workflow on it: the webhook's reject answer)
        sample("POST /api/v1/telephony/simulator/inbound-call", f -> Map.of("to", f.resources.get("phone_address")));
        sample("POST /api/v1/user/api-keys", f -> Map.of("name", f.marker + " key"));
        sample("POST /api/v1/workflow/ambient-noise/upload-url", f -> Map.of("workflow_id", f.id("workflow"),
                "filename", "noise.wav", "mime_type", "audio/wav", "file_size", 1000));
        sample("POST /api/v1/workflow/create/definition", f -> Map.of("name", f.marker + " agent " + f.unique(),
                "workflow_definition", WorkflowEndToEndTest.definition("Hello")));
        sample("POST /api/v1/workflow/create/template", f -> Map.of("call_type", "outbound", "use_case",
                "Appointment reminders", "activity_description", "Remind patients of tomorrow's appointment"));
        sample("POST /api/v1/workflow/templates/duplicate", f -> Map.of("template_id", 1, "workflow_name",
                f.marker + " from template"));
        sample("PUT /api/v1/workflow/{workflow_id}", f -> Map.of("name", f.marker + " agent"));
        sample("POST /api/v1/workflow/{workflow_id}/agent-preview", f -> Map.of("context_variables",
                Map.of("first_name", "Ann")));
        sample("PUT /api/v1/workflow/{workflow_id}/folder", f -> Map.of("folder_id", f.id("folder")));
        sample("POST /api/v1/workflow/{workflow_id}/runs", f -> Map.of("mode", "textchat", "name", f.marker + " run"));
        sample("PUT /api/v1/workflow/{workflow_id}/status", f -> Map.of("status", "active"));
        sample("PUT /api/v1/organizations/model-configurations/v2", TenantFixture::modelConfiguration);
        sample("PUT /api/v1/user/configurations/user", f -> Map.of("llm", Map.of("provider", "openai", "api_key",
                "sk-" + f.marker + "-user-key", "model", "gpt-4.1-mini", "base_url", DEAD_BASE_URL),
                "timezone", "Europe/Paris"));
        sample("POST /api/v1/organizations/tracing-credentials", TenantFixture::tracing);
        sample("POST /api/v1/organizations/langfuse-credentials", TenantFixture::tracing);
        sample("PUT /api/v1/user/onboarding-state", f -> Map.of("skipped", false, "seen_tooltips",
                List.of(f.marker + "-tooltip"), "completed_actions", List.of("created_agent")));
        sample("POST /api/v1/user/service-keys", f -> Map.of("name", f.marker + " runtime", "expires_in_days", 30));
        sample("POST /api/v1/workflow/{workflow_id}/text-chat/sessions", f -> Map.of("name", f.marker + " chat",
                "initial_context", Map.of("first_name", "Ann")));
        sample("POST /api/v1/workflow/{workflow_id}/text-chat/sessions/{run_id}/messages", f -> Map.of("text",
                "Hello there"));
        for (String trigger : List.of("/{uuid}", "/test/{uuid}", "/workflow/{workflow_uuid}", "/test/workflow/{workflow_uuid}")) {
            sample("POST /api/v1/public/agent" + trigger, f -> Map.of("phone_number", f.phoneNumber()));
        }
        sample("POST /api/v1/workflow/{workflow_id}/embed-token", f -> Map.of("allowed_domains", List.of(),
                "settings", Map.of("widgetType", "chat", "theme", f.marker)));
        sample("POST /api/v1/public/embed/init", f -> Map.of("token", f.resources.get("embed_token")));
        sample("POST /api/v1/public/embed/chat/{session_token}/messages", f -> Map.of("text", "Hello"));
        sample("POST /api/v1/credentials", f -> Map.of("name", f.marker + " credential " + f.unique(),
                "credential_type", "bearer_token", "credential_data", Map.of("token", "tok-" + f.marker)));
        sample("PUT /api/v1/credentials/{credential_uuid}", f -> Map.of("name", f.marker + " credential " + f.unique(),
                "credential_type", "api_key", "credential_data", Map.of("header_name", "X-Key", "api_key",
                        "key-" + f.marker)));
        sample("POST /api/v1/tools", f -> Map.of("name", f.marker + " tool", "category", "http_api",
                "definition", httpTool(f)));
        sample("PUT /api/v1/tools/{tool_uuid}", f -> Map.of("name", f.marker + " tool", "definition", httpTool(f)));
        sample("POST /api/v1/tools/{tool_uuid}/test", f -> Map.of("llm_params", Map.of("q", f.marker)));
        sample("POST /api/v1/workflow-recordings/upload-url", f -> Map.of("files", List.of(Map.of("filename",
                "hello.wav", "mime_type", "audio/wav", "file_size", 100))));
        sample("POST /api/v1/workflow-recordings", f -> Map.of("recordings", List.of(Map.of("recording_id",
                f.marker + "-" + f.unique(), "transcript", "Hello " + f.marker, "storage_key",
                f.resources.get("recording_key")))));
        sample("POST /api/v1/voice-clones", f -> Map.of("name", f.marker + " voice", "recording_ids",
                List.of(f.resources.get("recording_id"))));
        sample("PUT /api/v1/voice-clones/agents/{workflow_id}", f -> Map.of("clone_id", f.resources.get("voice_clone")));
        sample("POST /api/v1/voice-clones/{clone_id}/preview", f -> Map.of("text", "Hello from " + f.marker));
        sample("POST /api/v1/knowledge-base/upload-url", f -> Map.of("filename", "faq.txt", "mime_type", "text/plain"));
        sample("POST /api/v1/knowledge-base/process-document", f -> Map.of("document_uuid", f.resources.get("document"),
                "s3_key", f.resources.get("document_key"), "retrieval_mode", "chunked"));
        sample("POST /api/v1/organizations/dnc", f -> Map.of("phone_number",
                "+44207946%04d".formatted(Math.floorMod(f.unique().hashCode(), 10_000)), "reason", f.marker + " asked"));
        sample("POST /api/v1/webhook-endpoints", f -> Map.of("url", GUARDED_URL + "/hooks/" + f.marker,
                "description", f.marker + " hooks", "event_types", List.of("campaign.started")));
        sample("POST /api/v1/organizations/dnc/import", f -> Map.of("file_key", f.resources.get("object_key")));
        sample("POST /api/v1/knowledge-base/search", f -> Map.of("query", "opening hours", "limit", 5));
        sample("PATCH /api/v1/workflow-recordings/{id}", f -> Map.of("recording_id", f.marker + "-" + f.unique()));
        sample("PUT /api/v1/workflow/{workflow_id}/text-chat/scenarios/{run_id}", f -> Map.of("name",
                f.marker + " scenario", "expectations", List.of(Map.of("turn", 0))));
    }

    /** Bring-your-own-keys models, every key carrying the marker (so a leak to another organization shows). */
    static Map<String, Object> modelConfiguration(TenantFixture f) {
        return Map.of("version", 2, "mode", "byok", "byok", Map.of("mode", "pipeline", "pipeline", Map.of(
                // the simulator: text chats answer without any model (a model that is down would be a 502)
                "llm", Map.of("provider", "simulator"),
                "tts", Map.of("provider", "elevenlabs", "api_key", "xi-" + f.marker + "-tts-key", "voice", "Rachel"),
                "stt", Map.of("provider", "deepgram", "api_key", "dg-" + f.marker + "-stt-key"))));
    }

    static Map<String, Object> httpTool(TenantFixture f) {
        return Map.of("schema_version", 1, "type", "http_api", "config", Map.of("method", "GET", "url",
                GUARDED_URL + "/" + f.marker, "credential_uuid", f.resources.get("credential"), "parameters",
                List.of(Map.of("name", "q", "type", "string", "description", "query"))));
    }

    static Map<String, Object> tracing(TenantFixture f) {
        return Map.of("host", "https://" + f.marker + ".langfuse.example", "public_key", "pk-lf-" + f.marker,
                "secret_key", "sk-lf-" + f.marker, "project_id", f.marker + "-project");
    }

    private static void sample(String operation, Function<TenantFixture, Map<String, Object>> body) {
        SAMPLES.put(operation, body);
    }

    final String marker;
    final Api.Account account;
    final String apiKey;
    private final Map<String, Object> resources = new LinkedHashMap<>();

    private TenantFixture(String label) {
        this.marker = label + "-" + UUID.randomUUID().toString().substring(0, 8);
        this.account = Api.signUp(marker);
        this.apiKey = Api.createKey(account, marker + " main");
    }

    /** An organization with nothing in it but its account and key. */
    static TenantFixture empty(String label) {
        return new TenantFixture(label);
    }

    /** An organization holding one resource of each kind. */
    static TenantFixture create(String label) {
        TenantFixture f = new TenantFixture(label);
        f.populate(0);
        return f;
    }

    /**
     * Adds one more resource of each kind to this organization (round 0 is the first; the ids that
     * path parameters take are the newest round's). The organization's single settings are written
     * in round 0 only.
     */
    void populate(int round) {
        TenantFixture f = this;
        String m = round == 0 ? marker : marker + "-" + round;
        // later rounds add the children (runs, chats, numbers, trunks) to the first round's parents, so that
        // the lists under a parent grow too; the parents' path values stay the first round's
        Map<String, Object> first = round == 0 ? null : new LinkedHashMap<>(resources);
        long workflow = f.post("/api/v1/workflow/create/definition", Map.of("name", m + " agent",
                "workflow_definition", WorkflowEndToEndTest.definition("Hello"))).path("id").asLong();
        f.resources.put("workflow", workflow);
        String trigger = m + "-trigger";
        long triggered = f.post("/api/v1/workflow/create/definition", Map.of("name", m + " triggered agent",
                "workflow_definition", PublicAgentEndToEndTest.withTrigger(trigger, true)))
                .path("id").asLong();
        f.resources.put("trigger_path", trigger);
        f.resources.put("workflow_uuid", f.get("/api/v1/workflow/fetch/" + triggered).path("workflow_uuid").asText());
        long parentWorkflow = round == 0 ? workflow : (long) first.get("workflow");
        f.resources.put("run", f.post("/api/v1/workflow/" + parentWorkflow + "/runs",
                Map.of("mode", "textchat", "name", m + " run")).path("id").asLong());
        f.resources.put("folder", f.post("/api/v1/folder/", Map.of("name", m + " folder")).path("id").asLong());
        long configuration = f.post("/api/v1/organizations/telephony-configs", Map.of("name", m + " simulator",
                "config", Map.of("provider", "simulator"))).path("id").asLong();
        f.resources.put("configuration", configuration);
        String address = f.phoneNumber();
        f.resources.put("phone_address", address);
        long parentConfiguration = round == 0 ? configuration : (long) first.get("configuration");
        f.resources.put("phone_number", f.post("/api/v1/organizations/telephony-configs/" + parentConfiguration
                + "/phone-numbers", Map.of("address", address, "label", m + " line")).path("id").asLong());
        long trunkConfiguration = f.post("/api/v1/organizations/telephony-configs", Map.of("name", m + " pbx",
                "config", Map.of("provider", "ari", "ari_endpoint", "http://pbx.local:8088", "app_name", "voice",
                        "app_password", "secret"))).path("id").asLong();
        f.resources.put("trunk_configuration", trunkConfiguration);
        long parentTrunks = round == 0 ? trunkConfiguration : (long) first.get("trunk_configuration");
        f.resources.put("trunk", f.post("/api/v1/organizations/telephony-configs/" + parentTrunks + "/trunks",
                Map.of("name", m + " trunk", "settings", Map.of("context", "from-ai"))).path("id").asLong());
        byte[] csv = "phone_number,first_name\n+15550100001,Ann\n".getBytes(StandardCharsets.UTF_8);
        JsonNode upload = f.post("/api/v1/object-store/presigned-upload-url", Map.of("file_name", "contacts.csv",
                "file_size", csv.length));
        given().urlEncodingEnabled(false).contentType("text/csv").body(csv).put(upload.path("upload_url").asText())
                .then().statusCode(200);
        f.resources.put("object_key", upload.path("file_key").asText());
        f.resources.put("webhook_endpoint", f.post("/api/v1/webhook-endpoints", Map.of("url", GUARDED_URL + "/hooks/"
                + m, "description", m + " hooks")).path("id").asLong());
        f.resources.put("dnc_number", f.post("/api/v1/organizations/dnc", Map.of("phone_number",
                "+44207946%04d".formatted(Math.floorMod(m.hashCode(), 10_000)), "reason", m + " asked"))
                .path("phone_number").asText());
        f.resources.put("campaign", f.post("/api/v1/campaign/create", Map.of("name", m + " campaign",
                "workflow_id", workflow, "source_type", "csv", "source_id", upload.path("file_key").asText(),
                "telephony_configuration_id", configuration)).path("id").asLong());
        String spare = Api.createKey(f.account, m + " spare");
        f.resources.put("spare_api_key", Api.keyId(f.account, spare));
        f.resources.put("service_key", f.post("/api/v1/user/service-keys", Map.of("name", m + " runtime"))
                .path("id").asLong());
        if (round == 0) {
            f.send("PUT", "/api/v1/organizations/model-configurations/v2", modelConfiguration(f));
            f.send("PUT", "/api/v1/user/configurations/user", SAMPLES.get("PUT /api/v1/user/configurations/user").apply(f));
            f.send("POST", "/api/v1/organizations/tracing-credentials", tracing(f));
        }
        f.resources.put("chat_run", f.post("/api/v1/workflow/" + parentWorkflow + "/text-chat/sessions",
                Map.of("name", m + " chat", "initial_context", Map.of("first_name", "Ann"))).path("workflow_run_id").asLong());
        f.resources.put("embed_token", f.post("/api/v1/workflow/" + workflow + "/embed-token", Map.of("allowed_domains",
                List.of(), "settings", Map.of("widgetType", "chat"))).path("token").asText());
        f.send("PUT", "/api/v1/workflow/" + parentWorkflow + "/text-chat/scenarios/" + f.id("chat_run"),
                Map.of("name", m + " scenario"));
        if (round == 0) {
            f.send("PUT", "/api/v1/user/onboarding-state", SAMPLES.get("PUT /api/v1/user/onboarding-state").apply(f));
        }
        f.resources.put("credential", f.post("/api/v1/credentials/", Map.of("name", m + " credential",
                "credential_type", "custom_header", "credential_data", Map.of("header_name", "X-" + m,
                        "header_value", "secret-" + m))).path("uuid").asText());
        JsonNode recordingUpload = f.post("/api/v1/workflow-recordings/upload-url", Map.of("files", List.of(Map.of(
                "filename", "greeting.wav", "mime_type", "audio/wav", "file_size", 16)))).path("items").path(0);
        given().urlEncodingEnabled(false).contentType("audio/wav").body("RIFF fake audio!".getBytes(StandardCharsets.UTF_8))
                .put(recordingUpload.path("upload_url").asText()).then().statusCode(200);
        f.resources.put("recording_key", recordingUpload.path("storage_key").asText());
        JsonNode recording = f.post("/api/v1/workflow-recordings/", Map.of("recordings", List.of(Map.of("recording_id",
                m + "-greeting", "transcript", "Hello from " + m, "storage_key",
                recordingUpload.path("storage_key").asText())))).path("recordings").path(0);
        f.resources.put("recording", recording.path("id").asLong());
        f.resources.put("recording_id", recording.path("recording_id").asText());
        JsonNode document = f.post("/api/v1/knowledge-base/upload-url", Map.of("filename", "faq.txt", "mime_type",
                "text/plain"));
        given().urlEncodingEnabled(false).contentType("text/plain").body(("Opening hours of " + m + ": nine to five.")
                .getBytes(StandardCharsets.UTF_8)).put(document.path("upload_url").asText()).then().statusCode(200);
        f.resources.put("document", document.path("document_uuid").asText());
        f.resources.put("document_key", document.path("s3_key").asText());
        f.send("POST", "/api/v1/knowledge-base/process-document", Map.of("document_uuid",
                document.path("document_uuid").asText(), "s3_key", document.path("s3_key").asText()));
        f.resources.put("tool", f.post("/api/v1/tools/", Map.of("name", m + " tool", "definition", httpTool(f)))
                .path("tool_uuid").asText());
        f.resources.put("mcp_tool", f.post("/api/v1/tools/", Map.of("name", m + " mcp", "category", "mcp",
                "definition", Map.of("schema_version", 1, "type", "mcp", "config", Map.of("url", GUARDED_URL + "/mcp",
                        "credential_uuid", f.resources.get("credential"))))).path("tool_uuid").asText());
        f.resources.put("voice_clone", f.post("/api/v1/voice-clones", Map.of("name", m + " voice", "recording_ids",
                List.of(f.resources.get("recording_id")))).path("id").asLong());
        // the background processing settles the document before the suites read it
        KnowledgeBaseEndToEndTest.settled(f.apiKey, (String) f.resources.get("document"));
        if (first != null) {
            for (String parent : List.of("workflow", "configuration", "trunk_configuration")) {
                resources.put(parent, first.get(parent));
            }
        }
    }

    RequestSpecification as() {
        return given().header("X-API-Key", apiKey);
    }

    JsonNode post(String path, Map<String, Object> body) {
        String json = as().contentType(ContentType.JSON).body(body).post(path).then().statusCode(200).extract().asString();
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    JsonNode get(String path) {
        String json = as().get(path).then().statusCode(200).extract().asString();
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void send(String method, String path, Map<String, Object> body) {
        as().contentType(ContentType.JSON).body(body).request(method, path).then().statusCode(200);
    }

    long id(String resource) {
        return ((Number) resources.get(resource)).longValue();
    }

    Map<String, Object> resources() {
        return Collections.unmodifiableMap(resources);
    }

    /** The value of a path parameter of an operation: this tenant's resource, or a global value; null if unknown. */
    Object pathValue(ApiDocument.Operation operation, String parameter) {
        Function<String, String> creator = CREATORS.get(parameter);
        if (creator != null) {
            return resources.get(creator.apply(operation.path()));
        }
        return GLOBAL_PARAMETERS.get(parameter);
    }

    /** The query string of the operation's parameters that name a resource, and of its other required ones. */
    String query(ApiDocument document, ApiDocument.Operation op) {
        StringBuilder query = new StringBuilder();
        for (ApiDocument.Parameter p : op.queryParameters()) {
            Object value = CREATORS.containsKey(p.name()) ? pathValue(op, p.name())
                    : p.required() ? generate(document, p.schema(), 1) : null;
            if (value != null) {
                query.append(query.isEmpty() ? "?" : "&").append(p.name()).append('=').append(encode(String.valueOf(value)));
            }
        }
        return query.toString();
    }

    /** The operation's path with every parameter filled in (URL-encoded); null when a parameter has no value. */
    String url(ApiDocument.Operation operation) {
        String url = operation.path();
        for (ApiDocument.Parameter p : operation.pathParameters()) {
            Object value = pathValue(operation, p.name());
            if (value == null) {
                return null;
            }
            url = url.replace("{" + p.name() + "}", encode(String.valueOf(value)));
        }
        return url;
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** A valid body for the operation: from {@link #SAMPLES}, else generated from its schema's required fields. */
    Map<String, Object> sampleBody(ApiDocument document, ApiDocument.Operation operation) {
        Function<TenantFixture, Map<String, Object>> sample = SAMPLES.get(operation.key());
        if (sample != null) {
            return new LinkedHashMap<>(sample.apply(this));
        }
        Object generated = generate(document, operation.bodySchema(), 0);
        @SuppressWarnings("unchecked")
        Map<String, Object> body = generated instanceof Map<?, ?> map ? (Map<String, Object>) map : new LinkedHashMap<>();
        return body;
    }

    /** A value of the schema: its default, else its first enum value, else a plain one; objects get their required fields. */
    static Object generate(ApiDocument document, JsonNode schema, int depth) {
        JsonNode s = document.resolve(schema);
        for (String union : List.of("oneOf", "anyOf")) {
            // a union (a provider's settings told apart by "provider"): its first member that is not null
            for (JsonNode member : s.path(union)) {
                if (!"null".equals(document.resolve(member).path("type").asText())) {
                    return generate(document, member, depth);
                }
            }
        }
        if (s.has("const")) {
            return new com.fasterxml.jackson.databind.ObjectMapper().convertValue(s.path("const"), Object.class);
        }
        if (s.has("default") && !s.path("default").isNull()) {
            return new com.fasterxml.jackson.databind.ObjectMapper().convertValue(s.path("default"), Object.class);
        }
        if (s.has("enum")) {
            return s.path("enum").get(0).asText();
        }
        if (s.path("examples").isArray() && !s.path("examples").isEmpty()) {
            return new com.fasterxml.jackson.databind.ObjectMapper().convertValue(s.path("examples").get(0), Object.class);
        }
        if (s.has("pattern") && "string".equals(ApiDocument.type(s))) {
            for (String candidate : List.of("sample", "csv", "09:00", "a", "1")) {
                if (Pattern.compile(s.path("pattern").asText()).matcher(candidate).find()) {
                    return candidate;
                }
            }
        }
        return switch (ApiDocument.type(s)) {
            case "string" -> "date-time".equals(s.path("format").asText()) ? "2026-01-01T00:00:00Z" : "sample";
            case "integer" -> s.has("minimum") ? s.path("minimum").asLong() : 1;
            case "number" -> s.has("minimum") ? s.path("minimum").asDouble() : 1.0;
            case "boolean" -> true;
            case "array" -> s.path("minItems").asInt(0) > 0 ? List.of(generate(document, s.path("items"), depth + 1))
                    : List.of();
            case "object" -> {
                Map<String, Object> object = new LinkedHashMap<>();
                if (depth < 4) {
                    // a constant (a union member's "provider" tag) is part of a valid value though not required
                    s.path("properties").fields().forEachRemaining(p -> {
                        if (p.getValue().has("const")) {
                            object.put(p.getKey(), generate(document, p.getValue(), depth + 1));
                        }
                    });
                    for (JsonNode required : s.path("required")) {
                        object.put(required.asText(), generate(document, s.path("properties").path(required.asText()),
                                depth + 1));
                    }
                }
                yield object;
            }
            default -> "sample";
        };
    }

    /** Every resource id and key of this tenant as text, to look for in another organization's responses. */
    List<String> identifiers() {
        return resources.values().stream().map(String::valueOf).toList();
    }

    private String phoneNumber() {
        return "+1555" + (1_000_000 + ThreadLocalRandom.current().nextInt(8_999_999));
    }

    private String unique() {
        return UUID.randomUUID().toString().substring(0, 6);
    }
}
