package dev.voiceagent.deploy.support;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/**
 * A local stand-in for the model providers' APIs as this service calls them: OpenAI-compatible GET /v1/models
 * (Bearer), ElevenLabs GET /v1/user and /v1/voices (xi-api-key), Deepgram GET /v1/projects (Token), Cartesia
 * GET /voices (Bearer and Cartesia-Version). It records what it receives and answers as the provider does:
 * with success, with the provider's own refusal (401 and its error body), or too late (a time-out).
 */
public class FakeModelProviders implements QuarkusTestResourceLifecycleManager {

    public enum Behaviour { OK, REFUSE, SLOW, FAIL }

    public record Received(String method, String path, String query, Map<String, List<String>> headers, String body) {

        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().getFirst()).findFirst().orElse(null);
        }
    }

    public static final List<Received> REQUESTS = new CopyOnWriteArrayList<>();
    public static volatile Behaviour behaviour = Behaviour.OK;
    /** Where the fake answers, e.g. http://127.0.0.1:40123 (an OpenAI-compatible base URL is this + /v1). */
    public static volatile String base;

    public static final String INSTALLATION_KEY = "sk-installation-managed-key";

    private HttpServer server;

    public static void reset() {
        REQUESTS.clear();
        behaviour = Behaviour.OK;
        dimensions = DIMENSIONS;
    }

    @Override
    public Map<String, String> start() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newCachedThreadPool());
        server.createContext("/", FakeModelProviders::handle);
        server.start();
        base = "http://127.0.0.1:" + server.getAddress().getPort();
        return Map.of("voiceagent.models.openai-base-url", base + "/v1", "voiceagent.models.elevenlabs-base-url", base,
                "voiceagent.models.deepgram-base-url", base, "voiceagent.models.cartesia-base-url", base,
                // the installation's managed models (mode dograh), an OpenAI-compatible endpoint of its own
                "voiceagent.managed-models.base-url", base + "/managed/v1",
                "voiceagent.managed-models.api-key", INSTALLATION_KEY);
    }

    private static void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getPath();
        String requestBody = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        REQUESTS.add(new Received(exchange.getRequestMethod(), path, exchange.getRequestURI().getQuery(),
                Map.copyOf(exchange.getRequestHeaders()), requestBody));
        Behaviour now = behaviour;
        if (now == Behaviour.SLOW) {
            try {
                Thread.sleep(4_000); // the service gives up after 2 s in tests
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        boolean refuse = now == Behaviour.REFUSE;
        String body;
        int status = refuse ? 401 : now == Behaviour.FAIL ? 500 : 200;
        if (path.endsWith("/chat/completions")) {
            body = now == Behaviour.FAIL ? "{\"error\": {\"message\": \"The server had an error while processing your"
                    + " request\", \"type\": \"server_error\"}}"
                    : refuse ? "{\"error\": {\"message\": \"Incorrect API key provided\"}}" : chatAnswer(requestBody);
        } else if (path.equals("/v1/voices/add")) {
            // ElevenLabs instant voice cloning: a multipart form with a name and the samples as files
            boolean form = requestBody.contains("name=\"name\"") && requestBody.contains("name=\"files\"; filename=");
            if (!form && !refuse) {
                status = 422;
            }
            body = refuse ? "{\"detail\": {\"status\": \"invalid_api_key\", \"message\": \"Invalid API key\"}}"
                    : !form ? "{\"detail\": {\"status\": \"invalid_form\", \"message\": \"files are required\"}}"
                    : "{\"voice_id\": \"cl0n3dV01c3\", \"requires_verification\": false}";
        } else if (path.startsWith("/v1/text-to-speech/")) {
            body = refuse ? "{\"detail\": {\"status\": \"invalid_api_key\", \"message\": \"Invalid API key\"}}"
                    : "ID3-fake-mp3-of:" + path.substring("/v1/text-to-speech/".length());
        } else if (path.startsWith("/v1/voices/") && exchange.getRequestMethod().equals("DELETE")) {
            body = refuse ? "{\"detail\": {\"status\": \"invalid_api_key\", \"message\": \"Invalid API key\"}}"
                    : "{\"status\": \"ok\"}";
        } else if (path.endsWith("/embeddings")) {
            body = refuse ? "{\"error\": {\"message\": \"Incorrect API key provided\"}}" : embeddings(requestBody);
        } else if (path.endsWith("/audio/transcriptions")) {
            // OpenAI's answer to a multipart upload: {"text": ...}
            boolean multipart = String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"))
                    .startsWith("multipart/form-data; boundary=");
            if (!multipart) {
                status = 400;
            }
            body = refuse ? "{\"error\": {\"message\": \"Incorrect API key provided\"}}"
                    : !multipart ? "{\"error\": {\"message\": \"Could not parse multipart form\"}}"
                    : "{\"text\": \"Hello, thanks for calling Acme Dental.\"}";
        } else if (path.equals("/v1/listen")) {
            body = refuse ? "{\"err_code\": \"INVALID_AUTH\", \"err_msg\": \"Invalid credentials.\"}"
                    : "{\"metadata\": {\"duration\": 2.5}, \"results\": {\"channels\": [{\"alternatives\":"
                    + " [{\"transcript\": \"Your appointment is confirmed.\", \"confidence\": 0.98}]}]}}";
        } else if (path.endsWith("/models")) {
            body = refuse ? "{\"error\": {\"message\": \"Incorrect API key provided: sk-...0000.\", \"type\":"
                    + " \"invalid_request_error\", \"code\": \"invalid_api_key\"}}"
                    : "{\"object\": \"list\", \"data\": [{\"id\": \"gpt-4.1-mini\", \"object\": \"model\"}]}";
        } else if (path.equals("/v1/user")) {
            body = refuse ? "{\"detail\": {\"status\": \"invalid_api_key\", \"message\": \"Invalid API key\"}}"
                    : "{\"subscription\": {\"tier\": \"starter\"}, \"is_new_user\": false}";
        } else if (path.equals("/v1/voices")) {
            body = refuse ? "{\"detail\": {\"status\": \"invalid_api_key\", \"message\": \"Invalid API key\"}}"
                    : "{\"voices\": [{\"voice_id\": \"21m00Tcm4TlvDq8ikWAM\", \"name\": \"Rachel\", \"labels\":"
                    + " {\"accent\": \"american\", \"gender\": \"female\", \"description\": \"calm\"}, \"preview_url\":"
                    + " \"https://storage.example/rachel.mp3\", \"verified_languages\": [{\"language\": \"en\"}]},"
                    + " {\"voice_id\": \"pNInz6obpgDQGcFmaJgB\", \"name\": \"Adam\", \"labels\": {\"accent\":"
                    + " \"british\", \"gender\": \"male\", \"language\": \"en\"}}]}";
        } else if (path.equals("/v1/projects")) {
            body = refuse ? "{\"err_code\": \"INVALID_AUTH\", \"err_msg\": \"Invalid credentials.\"}"
                    : "{\"projects\": [{\"project_id\": \"p-1\", \"name\": \"Default\"}]}";
        } else if (path.equals("/voices")) {
            body = refuse ? "{\"error\": \"Invalid API key\"}"
                    : "{\"data\": [{\"id\": \"3faa81ae-d3d8-4ab1-9e44-e50e46d33c30\", \"name\": \"Ada\", \"description\":"
                    + " \"Warm narrator\", \"gender\": \"feminine\", \"language\": \"en\"}], \"has_more\": false}";
        } else {
            status = 404;
            body = "{\"detail\": \"Not Found\"}";
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        try {
            exchange.sendResponseHeaders(status, bytes.length);
            exchange.getResponseBody().write(bytes);
        } catch (IOException gone) {
            // the service gave up waiting: nothing to answer
        } finally {
            exchange.close();
        }
    }

    /**
     * As a model would answer: after a user message, a call of the first function offered (if any); otherwise a
     * line naming how many messages it was sent.
     */
    private static String chatAnswer(String requestBody) {
        io.vertx.core.json.JsonObject request = new io.vertx.core.json.JsonObject(requestBody);
        io.vertx.core.json.JsonArray messages = request.getJsonArray("messages");
        io.vertx.core.json.JsonArray tools = request.getJsonArray("tools");
        boolean afterUser = "user".equals(messages.getJsonObject(messages.size() - 1).getString("role"));
        String usage = ", \"usage\": {\"prompt_tokens\": 40, \"completion_tokens\": 9, \"total_tokens\": 49}}";
        if (afterUser && tools != null && !tools.isEmpty()) {
            String name = tools.getJsonObject(0).getJsonObject("function").getString("name");
            return "{\"choices\": [{\"message\": {\"role\": \"assistant\", \"content\": null, \"tool_calls\": [{\"id\":"
                    + " \"call_fake\", \"type\": \"function\", \"function\": {\"name\": \"" + name
                    + "\", \"arguments\": \"{}\"}}]}}]" + usage;
        }
        return "{\"choices\": [{\"message\": {\"role\": \"assistant\", \"content\": \"Fake model answer to "
                + messages.size() + " messages\"}}]" + usage;
    }

    /** Dimensions of the fake embeddings: a hashed bag of words, so texts sharing words point the same way. */
    public static final int DIMENSIONS = 64;
    /** The dimensions answered (a test may ask for a model's real size; {@link #reset()} restores 64). */
    public static volatile int dimensions = DIMENSIONS;

    /** OpenAI's embeddings answer ({"data": [{"index", "embedding"}]}), the items in reverse order as allowed. */
    static String embeddings(String requestBody) {
        io.vertx.core.json.JsonArray input = new io.vertx.core.json.JsonObject(requestBody).getJsonArray("input");
        io.vertx.core.json.JsonArray data = new io.vertx.core.json.JsonArray();
        for (int i = input.size() - 1; i >= 0; i--) {
            data.add(new io.vertx.core.json.JsonObject().put("object", "embedding").put("index", i)
                    .put("embedding", new io.vertx.core.json.JsonArray(vector(input.getString(i)))));
        }
        return new io.vertx.core.json.JsonObject().put("object", "list").put("data", data)
                .put("usage", new io.vertx.core.json.JsonObject().put("prompt_tokens", 8).put("total_tokens", 8)).encode();
    }

    public static List<Object> vector(String text) {
        return vector(text, dimensions);
    }

    public static List<Object> vector(String text, int size) {
        double[] v = new double[size];
        for (String word : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (word.length() > 2) {
                v[Math.floorMod(word.hashCode(), size)] += 1;
            }
        }
        List<Object> out = new ArrayList<>();
        for (double d : v) {
            out.add(d);
        }
        return out;
    }

    @Override
    public void stop() {
        if (server != null) {
            server.stop(0);
        }
    }
}
