package dev.voiceagent.deploy.safety;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.FakeModelProviders;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Every read of the served OpenAPI document (each GET an organization can fill in with its own ids)
 * costs the same number of SQL statements with one of everything as with three of everything: no
 * list loads its rows one statement at a time. Statements are counted with pg_stat_statements around
 * each request (background ticks are marked and not counted; the fewest of five tries, so a
 * key's once-a-minute last-use write does not count). A list is a read whose answer holds an array
 * that grew between the two sizes; the suite fails when fewer lists than expected grew, so that a
 * fixture change cannot empty it silently.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
@WithTestResource(FakeModelProviders.class)
class StatementCountSuiteTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String COUNTED = " FROM pg_stat_statements WHERE query NOT ILIKE"
            + " '%pg_stat_statements%' AND query NOT LIKE '/* background tick */%'"
            + " AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())";
    private static final String COUNT = "SELECT coalesce(sum(calls), 0)" + COUNTED;
    /** What was counted, for the failure message: calls and the start of each statement. */
    private static final String COUNTED_TEXTS = "SELECT coalesce(string_agg(calls || ' x ' || left(regexp_replace(query,"
            + " '\\s+', ' ', 'g'), 100), ' | '), '')" + COUNTED;
    /** Reads that reach no data of the organization's rows (health, catalogues): counted, not required to grow. */
    private static final Set<String> NOT_DATA = Set.of("GET /api/v1/health", "GET /api/v1/health/active-calls",
            "GET /api/v1/health/autoscale-metric");

    @Inject
    AgroalDataSource dataSource;

    @Test
    void everyReadCostsTheSameStatementsForOneRowAsForThree() throws IOException {
        Sql sql = new Sql(dataSource);
        assumeThat(sql.update("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")).isGreaterThanOrEqualTo(0);
        ApiDocument document = ApiDocument.served();
        TenantFixture tenant = TenantFixture.create("statements");
        Map<String, Measure> one = measure(sql, document, tenant);
        tenant.populate(1);
        tenant.populate(2);
        Map<String, Measure> three = measure(sql, document, tenant);

        List<String> failures = new ArrayList<>();
        List<String> lists = new ArrayList<>();
        List<String> flat = new ArrayList<>();
        int compared = 0;
        for (Map.Entry<String, Measure> entry : one.entrySet()) {
            Measure small = entry.getValue();
            Measure large = three.get(entry.getKey());
            if (large == null || small.status() != 200 || large.status() != 200) {
                continue;
            }
            compared++;
            if (large.longestArray() > small.longestArray()) {
                lists.add(entry.getKey());
            } else {
                flat.add(entry.getKey() + " (" + small.statements() + ")");
            }
            if (large.statements() != small.statements()) {
                failures.add(entry.getKey() + ": " + small.statements() + " statements with one of everything, "
                        + large.statements() + " with three (longest array " + small.longestArray() + " -> "
                        + large.longestArray() + "); with three: " + large.statementTexts());
            }
        }
        System.out.printf("statement suite: %d reads compared, %d of them lists that grew from one to three of"
                + " everything, each the same number of statements%n  lists: %s%n  other reads (statements): %s%n",
                compared, lists.size(), lists, flat);
        assertThat(failures).as("reads whose statements grow with their rows").isEmpty();
        assertThat(lists).as("lists that grew (workflows, runs, campaigns, keys, tools, documents, ...)")
                .hasSizeGreaterThanOrEqualTo(19)
                .contains("GET /api/v1/campaign/", "GET /api/v1/workflow/fetch", "GET /api/v1/tools",
                        "GET /api/v1/credentials", "GET /api/v1/user/api-keys", "GET /api/v1/folder/",
                        "GET /api/v1/workflow/{workflow_id}/runs",
                        "GET /api/v1/organizations/telephony-configs/{config_id}/phone-numbers");
    }

    record Measure(int status, long statements, int longestArray, String statementTexts) {
    }

    private static Map<String, Measure> measure(Sql sql, ApiDocument document, TenantFixture tenant) {
        Map<String, Measure> measures = new LinkedHashMap<>();
        for (ApiDocument.Operation op : document.operations()) {
            String url = tenant.url(op);
            if (!op.method().equals("GET") || url == null) {
                continue;
            }
            String full = url + tenant.query(document, op);
            long fewest = Long.MAX_VALUE;
            String texts = "";
            Response last = null;
            for (int i = 0; i < 5 && fewest > 0; i++) {
                sql.queryLong("SELECT count(*) FROM (SELECT pg_stat_statements_reset()) AS reset");
                long before = sql.queryLong(COUNT);
                last = tenant.as().urlEncodingEnabled(false).get(full);
                long counted = sql.queryLong(COUNT) - before;
                if (counted < fewest) {
                    fewest = counted;
                    texts = sql.queryString(COUNTED_TEXTS);
                }
            }
            measures.put(op.key(), new Measure(last.statusCode(), fewest,
                    NOT_DATA.contains(op.key()) ? 0 : longestArray(last.asString()), texts));
        }
        return measures;
    }

    /** The size of the longest JSON array anywhere in the answer (0 when it is not JSON). */
    private static int longestArray(String text) {
        try {
            return longest(JSON.readTree(text));
        } catch (IOException notJson) {
            return 0;
        }
    }

    private static int longest(JsonNode node) {
        int longest = node.isArray() ? node.size() : 0;
        for (JsonNode child : node) {
            longest = Math.max(longest, longest(child));
        }
        return longest;
    }
}
