package dev.voiceagent.deploy.safety;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.adapters.rest.shared.PublicPaths;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeModelProviders;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Hostile input against every operation of the application's own OpenAPI document (so an operation
 * added later is covered without touching this test), sent with valid credentials: malformed JSON
 * and wrong top-level types; for every body field (nested objects and array items included) a wrong
 * type, null, a NUL character, a 200 KB string, 10^30, -1 and 5,000 levels of nesting; for every path
 * and query parameter 0, -1, 2^64, a non-number, a percent-encoded NUL, an emoji and a malformed UUID.
 * Never a 5xx; every 4xx in the spec's error shape; a 422 list names the offending input in a loc.
 * The order of the requests comes from a seed, printed; -Dbadinput.seed=N replays a run.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeModelProviders.class) // voice clones and speech reach a local stand-in
class BadInputSuiteTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final String MUTATION = "\"__mutation__\"";
    private static final int NESTING = 5_000;
    private static final int FIELD_DEPTH = 3;

    /** Bodies that keep the reference's own error shape rather than the 422 list (with why). */
    private static final Map<String, String> OTHER_ERROR_SHAPES = Map.of(
            "is_valid", "an invalid workflow definition is {\"detail\": {\"is_valid\": false, \"errors\": [...]}},"
                    + " the reference's shape that its editor reads (reference-behavior 4.2)",
            "expected_revision", "a text chat revision conflict is {\"detail\": {\"message\", \"expected_revision\","
                    + " \"actual_revision\"}} (reference-behavior 6.1)");

    /**
     * 422 item types that are a verdict on something outside the request (with why), not on its input:
     * they need not name the mutated input.
     */
    private static final Map<String, String> VERDICTS = Map.of(
            "provider_check_failed", "GET /user/configurations/user/validate answers 422 listing each configured"
                    + " provider that refused its key or could not be reached (the reference's shape), whatever the"
                    + " query; the fixture's providers are addresses nothing listens on");

    record Case(ApiDocument.Operation operation, String what, String url, String body, List<Object> target) {
    }

    @Test
    void noOperationAnswersHostileInputWithA5xxOrAnErrorOutsideTheSpecShape() throws IOException {
        long seed = Long.getLong("badinput.seed", 20_261_123L);
        ApiDocument document = ApiDocument.served();
        TenantFixture tenant = TenantFixture.create("fuzz");
        List<Case> cases = new ArrayList<>();
        for (ApiDocument.Operation operation : document.operations()) {
            cases.addAll(cases(document, tenant, operation));
        }
        Collections.shuffle(cases, new Random(seed));
        System.out.printf("bad-input suite: %d operations, %d requests, seed %d (replay: -Dbadinput.seed=%d)%n",
                document.operations().size(), cases.size(), seed, seed);
        long started = System.nanoTime();
        List<String> failures = new ArrayList<>();
        List<Map.Entry<Long, String>> slowest = new ArrayList<>();
        for (Case c : cases) {
            long t0 = System.nanoTime();
            HttpResponse<String> response = send(tenant, c);
            slowest.add(Map.entry((System.nanoTime() - t0) / 1_000_000, c.operation() + " " + abbreviate(c.what())
                    .substring(0, Math.min(80, c.what().length())) + " -> " + response.statusCode()));
            String failure = check(c, response);
            if (failure != null) {
                failures.add(c.operation() + " " + c.what() + ": " + failure);
            }
        }
        slowest.sort(Map.Entry.<Long, String>comparingByKey().reversed());
        slowest.stream().limit(15).forEach(e -> System.out.println("slow: " + e.getKey() + " ms " + e.getValue()));
        System.out.printf("bad-input suite: %d requests in %d ms, %d failures%n", cases.size(),
                (System.nanoTime() - started) / 1_000_000, failures.size());
        assertThat(failures).as("seed %d; first failures of %d", seed, failures.size())
                .isEmpty();
        // every route called has its own request metrics (no cap dropping the later ones)
        String metrics = RestAssured.get("/q/metrics").then().statusCode(200).extract().asString();
        Set<String> uris = new TreeSet<>();
        Matcher tag = Pattern.compile("http_server_requests_seconds_count\\{[^}]*uri=\"([^\"]*)\"")
                .matcher(metrics);
        while (tag.find()) {
            uris.add(tag.group(1));
        }
        int cap = org.eclipse.microprofile.config.ConfigProvider.getConfig()
                .getValue("quarkus.micrometer.binder.http-server.max-uri-tags", Integer.class);
        long routes = document.operations().stream().map(ApiDocument.Operation::path).distinct().count();
        assertThat(cap).as("uri tag cap (routes, plus NOT_FOUND, redirects and /q/*)").isGreaterThan((int) routes + 20);
        assertThat(uris).as("request metrics by route").containsAll(cases.stream()
                .map(c -> c.operation().path()).filter(p -> !p.endsWith("/")).distinct().toList());
    }

    /**
     * Authentication before anything else: every operation that takes credentials answers an anonymous request 401,
     * whatever its body and media type (a media type the operation does not take included), and a public one does not.
     */
    @Test
    void everyOperationThatNeedsCredentialsAnswersAnAnonymousRequest401WhateverItsBody() throws Exception {
        ApiDocument document = ApiDocument.served();
        TenantFixture tenant = TenantFixture.create("anonymous");
        HttpClient client = CLIENT;
        List<String> failures = new ArrayList<>();
        int authenticated = 0;
        for (ApiDocument.Operation op : document.operations()) {
            if (PublicPaths.signed(op.path())) {
                continue; // a carrier's, the payment provider's or a signed link's route: its signature is checked
            }
            String url = tenant.url(op);
            for (String[] body : new String[][] {{"text/plain", "hello"}, {"application/xml", "<a/>"},
                    {"application/json", "{\"x\":"}, {"multipart/form-data; boundary=b", "--b--"}}) {
                HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + url))
                        .timeout(Duration.ofSeconds(30)).header("Content-Type", body[0])
                        .header("Accept", "application/json")
                        .method(op.method(), HttpRequest.BodyPublishers.ofString(body[1])).build();
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                boolean needs = op.authenticated() || op.path().startsWith("/api/v1/public/agent/");
                if (needs && (response.statusCode() != 401
                        || !response.body().contains("\"detail\""))) {
                    failures.add(op + " with " + body[0] + ": " + response.statusCode() + " " + abbreviate(
                            response.body()));
                }
                if (!op.authenticated() && response.statusCode() == 401 && op.path().startsWith("/api/v1/health")) {
                    failures.add(op + " is public but answered 401");
                }
            }
            authenticated += op.authenticated() || op.path().startsWith("/api/v1/public/agent/") ? 1 : 0;
        }
        assertThat(authenticated).as("operations that take credentials").isGreaterThan(150);
        assertThat(failures).isEmpty();
    }

    private static List<Case> cases(ApiDocument document, TenantFixture tenant, ApiDocument.Operation op)
            throws IOException {
        List<Case> out = new ArrayList<>();
        String url = tenant.url(op);
        if (url == null) {
            throw new AssertionError(op + ": a path parameter has no value in TenantFixture (add its creator)");
        }
        // a DELETE with real ids would remove what later requests need: its other mutations aim at an absent id
        String target = op.method().equals("DELETE") ? absent(op) : url;
        boolean jsonBody = op.bodySchema() != null && op.bodyMediaType().contains("json");
        String sampleJson = jsonBody ? JSON.writeValueAsString(tenant.sampleBody(document, op)) : null;
        String query = requiredQuery(document, tenant, op, null);
        for (ApiDocument.Parameter p : op.pathParameters()) {
            for (String value : hostileValues()) {
                String mutated = op.path();
                for (ApiDocument.Parameter q : op.pathParameters()) {
                    mutated = mutated.replace("{" + q.name() + "}", q.name().equals(p.name()) ? value
                            : TenantFixture.encode(String.valueOf(tenant.pathValue(op, q.name()))));
                }
                out.add(new Case(op, "path " + p.name() + "=" + value, mutated + query, sampleJson,
                        List.of("path", p.name())));
            }
        }
        for (ApiDocument.Parameter p : op.queryParameters()) {
            for (String value : hostileValues()) {
                String others = requiredQuery(document, tenant, op, p.name());
                out.add(new Case(op, "query " + p.name() + "=" + value,
                        target + (others.isEmpty() ? "?" : others + "&") + p.name() + "=" + value, sampleJson,
                        List.of("query", p.name())));
            }
        }
        if (!jsonBody) {
            return out;
        }
        target = target + query;
        Map<String, Object> sample = tenant.sampleBody(document, op);
        for (String raw : List.of("{\"broken\": ", "[1]", "\"text\"", "42", "null")) {
            out.add(new Case(op, "body " + abbreviate(raw), target, raw, List.of("body")));
        }
        List<List<Object>> fields = new ArrayList<>();
        List<JsonNode> schemas = new ArrayList<>();
        collectFields(document, op.bodySchema(), new ArrayList<>(), 0, fields, schemas);
        for (int i = 0; i < fields.size(); i++) {
            List<Object> field = fields.get(i);
            for (String value : fieldValues(ApiDocument.type(document.resolve(schemas.get(i))))) {
                Object body = place(document, op.bodySchema(), deepCopy(sample), field, 0);
                String json = JSON.writeValueAsString(body).replace(MUTATION, value);
                List<Object> loc = new ArrayList<>();
                loc.add("body");
                loc.addAll(field);
                out.add(new Case(op, "body." + field + "=" + abbreviate(value), target, json, loc));
            }
        }
        return out;
    }

    /** "?a=1&b=2" of the operation's required query parameters but {@code except}, valued from the tenant. */
    private static String requiredQuery(ApiDocument document, TenantFixture tenant, ApiDocument.Operation op,
            String except) {
        StringBuilder query = new StringBuilder();
        for (ApiDocument.Parameter p : op.queryParameters()) {
            if (!p.required() || p.name().equals(except)) {
                continue;
            }
            Object value = tenant.pathValue(op, p.name());
            if (value == null) {
                value = TenantFixture.generate(document, p.schema(), 1);
            }
            query.append(query.isEmpty() ? "?" : "&").append(p.name()).append('=')
                    .append(TenantFixture.encode(String.valueOf(value)));
        }
        return query.toString();
    }

    /** The operation's path with every parameter an id that exists nowhere. */
    private static String absent(ApiDocument.Operation op) {
        String url = op.path();
        for (ApiDocument.Parameter p : op.pathParameters()) {
            url = url.replace("{" + p.name() + "}", "987654321");
        }
        return url;
    }

    private static List<String> hostileValues() {
        return List.of("0", "-1", "18446744073709551616", "not-a-number", "%00", "%F0%9F%98%80", "zz-not-a-uuid-zz");
    }

    private static List<String> fieldValues(String type) {
        String wrongType = switch (type) {
            case "string" -> "12345";
            case "integer", "number" -> "\"not a number\"";
            case "boolean" -> "\"not a boolean\"";
            case "object" -> "\"not an object\"";
            case "array" -> "\"not an array\"";
            default -> "[[]]";
        };
        return List.of(wrongType, "null", "\"a\\u0000b\"", "\"" + "x".repeat(200 * 1024) + "\"",
                "1000000000000000000000000000000", "-1", "[".repeat(NESTING) + "]".repeat(NESTING));
    }

    /** Every field of a body schema, depth first: nested objects' fields and array items' fields (at index 0). */
    private static void collectFields(ApiDocument document, JsonNode schema, List<Object> path, int depth,
            List<List<Object>> fields, List<JsonNode> schemas) {
        JsonNode s = document.resolve(schema);
        for (var it = s.path("properties").fields(); it.hasNext(); ) {
            var property = it.next();
            List<Object> field = new ArrayList<>(path);
            field.add(property.getKey());
            fields.add(field);
            schemas.add(property.getValue());
            if (depth + 1 >= FIELD_DEPTH) {
                continue;
            }
            JsonNode child = document.resolve(property.getValue());
            if ("object".equals(ApiDocument.type(child)) && child.has("properties")) {
                collectFields(document, child, field, depth + 1, fields, schemas);
            } else if ("array".equals(ApiDocument.type(child))) {
                JsonNode items = document.resolve(child.path("items"));
                if (items.has("properties")) {
                    List<Object> element = new ArrayList<>(field);
                    element.add(0);
                    collectFields(document, items, element, depth + 1, fields, schemas);
                }
            }
        }
    }

    /** The body with the mutation marker at {@code field}, creating the containers on the way from the schema. */
    @SuppressWarnings("unchecked")
    private static Object place(ApiDocument document, JsonNode schema, Object container, List<Object> field, int at) {
        JsonNode s = document.resolve(schema);
        Object key = field.get(at);
        boolean last = at == field.size() - 1;
        if (key instanceof String name) {
            Map<String, Object> map = container instanceof Map<?, ?> m ? (Map<String, Object>) m : new LinkedHashMap<>();
            JsonNode childSchema = s.path("properties").path(name);
            map.put(name, last ? MUTATION.substring(1, MUTATION.length() - 1)
                    : place(document, childSchema, map.containsKey(name) && map.get(name) != null ? map.get(name)
                            : TenantFixture.generate(document, childSchema, 1), field, at + 1));
            return map;
        }
        List<Object> list = container instanceof List<?> l ? new ArrayList<>(l) : new ArrayList<>();
        JsonNode items = s.path("items");
        Object element = list.isEmpty() ? TenantFixture.generate(document, items, 1) : list.getFirst();
        Object placed = last ? MUTATION.substring(1, MUTATION.length() - 1) : place(document, items, element, field, at + 1);
        if (list.isEmpty()) {
            list.add(placed);
        } else {
            list.set(0, placed);
        }
        return list;
    }

    private static Object deepCopy(Map<String, Object> body) throws IOException {
        return JSON.readValue(JSON.writeValueAsBytes(body), Object.class);
    }

    /**
     * Sent with the JDK's HTTP client: the path and query go out exactly as written (percent-encoded
     * NUL, emoji), and bodies of 200 KB or 5,000 brackets are not inspected on the way.
     */
    private static HttpResponse<String> send(TenantFixture tenant, Case c) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + c.url()))
                .timeout(Duration.ofSeconds(30)).header("X-API-Key", tenant.apiKey);
        String type = c.body() != null ? "application/json" : c.operation().bodyMediaType();
        if (type != null) {
            request.header("Content-Type", type);
        }
        request.method(c.operation().method(), c.body() == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(c.body()));
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(c.operation() + " " + c.what(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Why the response breaks the rules, or null. */
    private static String check(Case c, HttpResponse<String> response) {
        int status = response.statusCode();
        String text = response.body();
        if (status >= 500) {
            return status + " " + abbreviate(text);
        }
        if (status < 400) {
            return null;
        }
        JsonNode body;
        try {
            body = JSON.readTree(text);
        } catch (IOException e) {
            return status + " with a body that is not JSON: " + abbreviate(text);
        }
        JsonNode detail = body == null ? null : body.get("detail");
        if (detail == null) {
            return status + " without detail: " + abbreviate(text);
        }
        if (detail.isTextual()) {
            return null;
        }
        if (detail.isObject() && OTHER_ERROR_SHAPES.keySet().stream().anyMatch(detail::has)) {
            return null;
        }
        if (status != 422 || !detail.isArray() || detail.isEmpty()) {
            return status + " detail is neither a string nor a 422 list: " + abbreviate(text);
        }
        boolean named = false;
        boolean verdicts = true;
        for (JsonNode error : detail) {
            verdicts &= VERDICTS.containsKey(error.path("type").asText());
            if (!error.path("loc").isArray() || error.path("loc").isEmpty() || !error.path("msg").isTextual()
                    || !error.path("type").isTextual()) {
                return "422 item without loc, msg and type: " + abbreviate(error.toString());
            }
            named |= names(error.path("loc"), c.target());
        }
        return named || verdicts ? null : "422 whose loc does not name " + c.target() + ": " + abbreviate(text);
    }

    /** The loc and the mutated input are on one path: one is a prefix of the other, down to the top-level field. */
    private static boolean names(JsonNode loc, List<Object> target) {
        List<String> given = new ArrayList<>();
        loc.forEach(element -> given.add(element.asText()));
        List<String> wanted = target.stream().map(String::valueOf).toList();
        int common = Math.min(given.size(), wanted.size());
        if (!given.subList(0, common).equals(wanted.subList(0, common))) {
            return false;
        }
        return common >= Math.min(2, wanted.size());
    }

    private static String abbreviate(String text) {
        String flat = text == null ? "null" : text.replace('\n', ' ');
        return flat.length() <= 300 ? flat : flat.substring(0, 300) + "...(" + flat.length() + " chars)";
    }
}
