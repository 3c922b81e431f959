package dev.voiceagent.deploy.safety;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeModelProviders;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Organization A holds one of each resource (TenantFixture's creators); organization B, holding
 * nothing, calls every operation of the served OpenAPI document that names one of A's resources (in
 * its path, its body or its query) with A's ids and a valid body: always a refusal (404, or 403 where
 * the reference answers 403), never a 2xx, and ownership is checked before any other precondition.
 * B's list operations never show A's resources, and afterwards every read of A's resources answers
 * exactly as before. An operation whose path parameter has no creator fails this test: a new resource
 * cannot be forgotten.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeModelProviders.class) // voice clones and speech reach a local stand-in
class CrossOrganizationIsolationTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<Integer> NOT_FOUND = Set.of(404);

    /** Operations refused otherwise than with 404, and why. */
    private static final Map<String, Set<Integer>> REFUSALS = Map.of(
            // provider callbacks: a run without a call of that provider (404), else the provider's signature (403)
            "POST /api/v1/telephony/simulator/events/{run_id}", Set.of(403, 404),
            "POST /api/v1/telephony/telnyx/events/{run_id}", Set.of(403, 404),
            "POST /api/v1/telephony/twilio/status-callback/{run_id}", Set.of(403, 404),
            // the local object store's routes: the URL's signature is the credential
            "GET /api/v1/object-store/local/{key}", Set.of(403),
            "PUT /api/v1/object-store/local/{key}", Set.of(403),
            // another organization's storage key: 403 Access denied, as the reference (reference-behavior 1.3)
            "GET /api/v1/object-store/signed-url", Set.of(403),
            "GET /api/v1/s3/signed-url", Set.of(403),
            "GET /api/v1/object-store/file-metadata", Set.of(403),
            "GET /api/v1/s3/file-metadata", Set.of(403));

    /** Reads whose answer is minted afresh each time (signed URLs), left out of the before/after comparison. */
    private static final Set<String> FRESH_EACH_TIME = Set.of(
            "GET /api/v1/campaign/{campaign_id}/source-download-url", "GET /api/v1/object-store/signed-url",
            "GET /api/v1/s3/signed-url", "GET /api/v1/health/active-calls", "GET /api/v1/health/autoscale-metric",
            "GET /api/v1/turn/credentials");
    /** Fields that change by themselves (a key's last use is written at most once a minute). */
    private static final Set<String> MOVING_FIELDS = Set.of("last_used_at");

    @Test
    void anotherOrganizationReachesNoneOfItsResourcesAndChangesNothing() throws IOException {
        ApiDocument document = ApiDocument.served();
        TenantFixture a = TenantFixture.create("org-a");
        TenantFixture b = TenantFixture.empty("org-b");
        Map<String, JsonNode> before = reads(document, a);

        List<String> failures = new ArrayList<>();
        int attacked = 0;
        int lists = 0;
        for (ApiDocument.Operation op : document.operations()) {
            for (ApiDocument.Parameter p : op.pathParameters()) {
                if (!TenantFixture.CREATORS.containsKey(p.name()) && !TenantFixture.GLOBAL_PARAMETERS.containsKey(p.name())) {
                    failures.add(op + ": path parameter " + p.name() + " has no creator in TenantFixture.CREATORS"
                            + " (nor is it in GLOBAL_PARAMETERS)");
                }
            }
            boolean namesA = op.pathParameters().stream().anyMatch(p -> TenantFixture.CREATORS.containsKey(p.name()))
                    || op.queryParameters().stream().anyMatch(p -> TenantFixture.CREATORS.containsKey(p.name()))
                    || TenantFixture.BODY_REFERENCES.contains(op.key());
            if (namesA) {
                attacked++;
                Response response = send(document, op, a, b);
                Set<Integer> expected = REFUSALS.getOrDefault(op.key(), NOT_FOUND);
                if (!expected.contains(response.statusCode())) {
                    failures.add(op + " as another organization: " + response.statusCode() + " (expected " + expected
                            + ") " + abbreviate(response.asString()));
                }
            } else if (op.method().equals("GET") && op.pathParameters().isEmpty()) {
                lists++;
                String text = b.as().get(op.path() + b.query(document, op)).asString();
                for (String trace : List.of(a.marker, String.valueOf(a.resources().get("object_key")))) {
                    if (text.contains(trace)) {
                        failures.add(op + " shows organization A's " + trace + " to organization B: " + abbreviate(text));
                    }
                }
            }
        }
        Map<String, JsonNode> after = reads(document, a);
        for (Map.Entry<String, JsonNode> read : before.entrySet()) {
            if (!read.getValue().equals(after.get(read.getKey()))) {
                failures.add(read.getKey() + " changed: before " + abbreviate(read.getValue().toString()) + " after "
                        + abbreviate(String.valueOf(after.get(read.getKey()))));
            }
        }
        System.out.printf("isolation suite: %d operations attacked with organization A's ids, %d lists checked,"
                + " %d reads compared before and after%n", attacked, lists, before.size());
        assertThat(attacked).as("operations naming a tenant's resources").isGreaterThan(30);
        assertThat(failures).isEmpty();
    }

    /** B calls the operation with A's ids in its path, body and query. */
    private static Response send(ApiDocument document, ApiDocument.Operation op, TenantFixture a, TenantFixture b)
            throws IOException {
        RequestSpecification request = b.as().urlEncodingEnabled(false);
        if (op.bodySchema() != null && op.bodyMediaType().contains("json")) {
            request = request.contentType("application/json").body(JSON.writeValueAsString(a.sampleBody(document, op)));
        } else if (op.bodyMediaType() != null) {
            request = request.contentType(op.bodyMediaType());
        }
        return request.request(op.method(), a.url(op) + a.query(document, op));
    }

    /** Every GET of the document that A can fill in with its own ids, answered as JSON (or text), by key. */
    private static Map<String, JsonNode> reads(ApiDocument document, TenantFixture a) throws IOException {
        Map<String, JsonNode> reads = new LinkedHashMap<>();
        for (ApiDocument.Operation op : document.operations()) {
            String url = a.url(op);
            if (!op.method().equals("GET") || url == null || FRESH_EACH_TIME.contains(op.key())) {
                continue;
            }
            Response response = a.as().urlEncodingEnabled(false).get(url + a.query(document, op));
            String text = response.asString();
            JsonNode body;
            try {
                body = JSON.readTree(text);
            } catch (IOException notJson) {
                body = JSON.getNodeFactory().textNode(text);
            }
            reads.put(op.key() + " -> " + response.statusCode(), withoutMovingFields(body));
        }
        return reads;
    }

    private static JsonNode withoutMovingFields(JsonNode node) {
        if (node instanceof ObjectNode object) {
            object.remove(MOVING_FIELDS);
            object.forEach(CrossOrganizationIsolationTest::withoutMovingFields);
        } else if (node != null && node.isArray()) {
            node.forEach(CrossOrganizationIsolationTest::withoutMovingFields);
        }
        return node;
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }
}
