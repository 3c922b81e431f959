package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import dev.voiceagent.deploy.support.TestClock;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Metering of finished runs into usage records and credits, and what the usage and report operations make of
 * them, with two organizations. The runs are written as the call engine leaves them (a run, its call in the call
 * ledger, then completed); the metering tick does the rest.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class UsageEndToEndTest {

    @Inject
    AgroalDataSource dataSource;

    private Sql sql;
    private Api.Account account;
    private String key;
    private String otherKey;
    private long otherOrganization;
    private long workflow;

    private static RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void organizations() {
        sql = new Sql(dataSource);
        account = Api.signUp("usage");
        key = Api.createKey(account, "k");
        Api.Account other = Api.signUp("usage-other");
        otherOrganization = other.organizationId();
        otherKey = Api.createKey(other, "k");
        workflow = as(key).body(Map.of("name", "Caller", "workflow_definition",
                        WorkflowEndToEndTest.definition("Call {{first_name}}")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    @AfterEach
    void backToNow() {
        TestClock.reset();
    }

    /** A run as the engine leaves it: created, its call (when given seconds) in the ledger, then completed. */
    private long run(String mode, Instant createdAt, Integer callSeconds, String usageInfo, String disposition,
            String callType) {
        long definition = sql.queryLong("SELECT id FROM workflow_definitions WHERE workflow_id = ? AND status ="
                + " 'published'", workflow);
        long id = sql.insertReturningId("INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name,"
                        + " mode, call_type, state, usage_info, initial_context, gathered_context, created_at)"
                        + " VALUES (?, ?, ?, 'run', ?, ?, 'running', ?::jsonb, ?::jsonb, ?::jsonb, ?::timestamptz)",
                account.organizationId(), workflow, definition, mode, callType, usageInfo,
                "{\"caller_number\": \"+14155550100\", \"called_number\": \"+442071838750\", \"phone_number\":"
                        + " \"+442071838750\"}",
                disposition == null ? null : "{\"mapped_call_disposition\": \"" + disposition + "\"}",
                createdAt.toString());
        if (callSeconds != null) {
            sql.update("INSERT INTO calls (organization_id, workflow_run_id, provider, status, to_number, started_at,"
                            + " duration_seconds) VALUES (?, ?, 'twilio', 'completed', '+442071838750', now(), ?)",
                    account.organizationId(), id, callSeconds);
        }
        sql.update("UPDATE workflow_runs SET state = 'completed', is_completed = true WHERE id = ?", id);
        return id;
    }

    private void awaitMetered(long organization, int runs) {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (sql.queryLong("SELECT count(*) FROM usage_records WHERE organization_id = ?", organization) < runs) {
            assertThat(Instant.now()).as("runs metered in time").isBefore(deadline);
            sleep(200);
        }
        sleep(300); // nothing more arrives
        assertThat(sql.queryLong("SELECT count(*) FROM usage_records WHERE organization_id = ?", organization))
                .isEqualTo(runs);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void everyFinishedRunIsMeteredOnceAndTheSumsAreExact() {
        sql.update("UPDATE organizations SET price_per_second = 0.002 WHERE id = ?", account.organizationId());
        Instant now = Instant.now().minusSeconds(60);
        long r1 = run("twilio", now, 7, "{\"call_duration_seconds\": 7.4}", "XFER", "outbound"); // 1.4 -> 1 cent
        long r2 = run("twilio", now, 8, "{}", "VM", "outbound"); // 1.6 -> 2
        long r3 = run("twilio", now, 600, "{}", "XFER", "inbound"); // 120
        long r4 = run("webrtc", now, null, "{\"call_duration_seconds\": 41.2}", "NA", "inbound"); // 42 s -> 8.4 -> 8
        long r5 = run("textchat", now, null, "{\"call_duration_seconds\": 95.0, \"llm\": {\"openai/gpt-4o\":"
                + " {\"prompt_tokens\": 300, \"completion_tokens\": 40, \"total_tokens\": 340}}}", null, "inbound");
        sql.insertReturningId("INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name, mode)"
                + " SELECT organization_id, workflow_id, definition_id, 'still running', 'twilio' FROM workflow_runs"
                + " WHERE id = ?", r1);
        awaitMetered(account.organizationId(), 5);

        assertThat(sql.queryLong("SELECT sum(charge_minor) FROM usage_records WHERE organization_id = ?",
                account.organizationId())).isEqualTo(131);
        assertThat(sql.queryLong("SELECT prompt_tokens + completion_tokens FROM usage_records WHERE workflow_run_id = ?",
                r5)).isEqualTo(340);
        assertThat(sql.queryString("SELECT cost_info->>'dograh_token_usage' FROM workflow_runs WHERE id = ?", r3))
                .isEqualTo("120");

        as(key).get("/api/v1/organizations/usage/current-period").then().statusCode(200)
                .body("total_duration_seconds", equalTo(657)).body("used_dograh_tokens", equalTo(131))
                .body("used_amount_usd", equalTo(1.31f)).body("currency", equalTo("USD"))
                .body("price_per_second_usd", equalTo(0.002f));

        JsonPath page = as(key).get("/api/v1/organizations/usage/runs?limit=2").then().statusCode(200)
                .body("total_count", equalTo(5)).body("total_duration_seconds", equalTo(657))
                .body("total_dograh_tokens", equalTo(131)).body("total_pages", equalTo(3)).body("runs", hasSize(2))
                .extract().jsonPath();
        assertThat(page.getString("runs[0].workflow_name")).isEqualTo("Caller");
        as(key).queryParam("filters", "[{\"attribute\":\"callChannel\",\"type\":\"radio\",\"value\":{\"status\":"
                        + "\"telephony\"}}]").queryParam("sort_by", "duration").queryParam("sort_order", "asc")
                .get("/api/v1/organizations/usage/runs").then().statusCode(200)
                .body("runs.id", contains((int) r1, (int) r2, (int) r3)).body("total_duration_seconds", equalTo(615))
                .body("runs[2].charge_usd", equalTo(1.2f)).body("runs[2].dograh_token_usage", equalTo(120))
                .body("runs[0].caller_number", equalTo("+14155550100"));
        as(key).queryParam("filters", "[{\"attribute\":\"duration\",\"type\":\"numberRange\",\"value\":{\"min\":8,"
                        + "\"max\":100}},{\"attribute\":\"callDirection\",\"type\":\"radio\",\"value\":{\"status\":"
                        + "\"inbound\"}},{\"attribute\":\"colour\",\"type\":\"text\",\"value\":{}}]")
                .get("/api/v1/organizations/usage/runs").then().statusCode(200).body("runs.id", contains((int) r4));
        as(key).queryParam("filters", "[{\"attribute\":\"dispositionCode\",\"type\":\"multiSelect\",\"value\":"
                        + "{\"codes\":[\"XFER\"]}}]").queryParam("sort_by", "duration")
                .get("/api/v1/organizations/usage/runs").then().statusCode(200).body("runs.id", contains((int) r3, (int) r1));
        as(key).queryParam("filters", "not json").get("/api/v1/organizations/usage/runs").then().statusCode(400)
                .body("detail", equalTo("Invalid filters format"));
        as(key).queryParam("sort_order", "sideways").get("/api/v1/organizations/usage/runs").then().statusCode(422);
        as(key).queryParam("start_date", "yesterday").get("/api/v1/organizations/usage/runs").then().statusCode(422);

        String csv = as(key).get("/api/v1/organizations/usage/runs/report").then().statusCode(200)
                .header("Content-Disposition", org.hamcrest.Matchers.startsWith("attachment; filename=\"usage_runs_"))
                .extract().asString();
        assertThat(csv.lines()).hasSize(6);
        assertThat(csv.lines().skip(1)).allSatisfy(line -> assertThat(line).doesNotContain("still running"));

        // the ledger: one debit per charged run, the balance after each exact, newest first
        JsonPath credits = as(key).get("/api/v1/organizations/billing/credits").then().statusCode(200)
                .body("remaining_credits", equalTo(-131)).body("total_credits_used", equalTo(131))
                .body("total_count", equalTo(4)).body("account.cached_balance_credits", equalTo(-131))
                .body("ledger_entries.entry_type", contains("usage", "usage", "usage", "usage"))
                .extract().jsonPath();
        assertThat(credits.getList("ledger_entries.balance_after", Integer.class)).containsExactly(-131, -123, -3, -1);
        assertThat(credits.getList("ledger_entries.workflow_run_id", Long.class)).containsExactly(r4, r3, r2, r1);

        // metering again changes nothing: the record and the debit exist once
        sql.update("UPDATE workflow_runs SET metered = false WHERE id IN (?, ?)", r1, r3);
        Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
        while (sql.queryLong("SELECT count(*) FROM workflow_runs WHERE id IN (?, ?) AND NOT metered", r1, r3) > 0) {
            assertThat(Instant.now()).isBefore(deadline);
            sleep(200);
        }
        assertThat(sql.queryLong("SELECT count(*) FROM usage_records WHERE organization_id = ?",
                account.organizationId())).isEqualTo(5);
        as(key).get("/api/v1/organizations/billing/credits").then().body("remaining_credits", equalTo(-131))
                .body("total_count", equalTo(4));
        // the quarter-hour rollup the breakdown and the month read agrees with the records, once
        assertThat(sql.queryString("SELECT sum(runs) || '/' || sum(call_seconds) || '/' || sum(charge_minor)"
                + " FROM usage_quarter_hours WHERE organization_id = ?", account.organizationId())).isEqualTo("5/657/131");

        // the other organization sees none of it, and has no price
        as(otherKey).get("/api/v1/organizations/usage/current-period").then().statusCode(200)
                .body("total_duration_seconds", equalTo(0)).body("used_amount_usd", nullValue())
                .body("price_per_second_usd", nullValue());
        as(otherKey).get("/api/v1/organizations/usage/runs").then().body("total_count", equalTo(0))
                .body("runs", hasSize(0));
        as(otherKey).get("/api/v1/organizations/billing/credits").then().body("remaining_credits", equalTo(0))
                .body("ledger_entries", hasSize(0)).body("account.organization_id", equalTo((int) otherOrganization));
        assertThat(as(otherKey).get("/api/v1/organizations/usage/runs/report").then().statusCode(200).extract()
                .asString().lines()).hasSize(1);
    }

    @Test
    void theDailyBreakdownCountsDaysInTheOrganizationsZoneAcrossTheAutumnChange() {
        sql.update("UPDATE organizations SET price_per_second = 0.01 WHERE id = ?", account.organizationId());
        as(key).body(Map.of("timezone", "America/New_York")).put("/api/v1/organizations/preferences").then()
                .statusCode(200);
        // New York fell back from UTC-4 to UTC-5 at 06:00Z on 2026-11-01: that day is 25 hours long
        run("twilio", Instant.parse("2026-11-01T03:30:00Z"), 60, "{}", "XFER", "outbound"); // Oct 31 23:30 EDT
        run("twilio", Instant.parse("2026-11-01T04:30:00Z"), 30, "{}", "VM", "outbound"); // Nov 1 00:30 EDT
        run("twilio", Instant.parse("2026-11-02T04:30:00Z"), 90, "{}", "VM", "outbound"); // Nov 1 23:30 EST
        run("twilio", Instant.parse("2026-11-02T05:30:00Z"), 45, "{}", "NA", "outbound"); // Nov 2 00:30 EST
        run("textchat", Instant.parse("2026-11-02T05:40:00Z"), null, "{}", null, "inbound"); // no call
        awaitMetered(account.organizationId(), 5);
        TestClock.advance(Duration.between(Instant.now(), Instant.parse("2026-11-02T15:00:00Z")));

        JsonPath breakdown = as(key).get("/api/v1/organizations/usage/daily-breakdown?days=4").then().statusCode(200)
                .body("breakdown.date", contains("2026-10-30", "2026-10-31", "2026-11-01", "2026-11-02"))
                .body("breakdown.call_count", contains(0, 1, 2, 1))
                .body("total_minutes", equalTo(3.75f)).body("total_cost_usd", equalTo(2.25f))
                .body("total_dograh_tokens", equalTo(225)).body("currency", equalTo("USD"))
                .extract().jsonPath();
        assertThat(breakdown.getList("breakdown.minutes", Float.class)).containsExactly(0f, 1f, 2f, 0.75f);
        assertThat(breakdown.getList("breakdown.cost_usd", Float.class)).containsExactly(0f, 0.6f, 1.2f, 0.45f);
        as(key).get("/api/v1/organizations/usage/daily-breakdown?days=31").then().statusCode(422);
        as(key).get("/api/v1/organizations/usage/daily-breakdown?days=0").then().statusCode(422);

        // the daily report's day is the zone's too: 25 hours in New York, 24 in UTC
        as(key).get("/api/v1/organizations/reports/daily?date=2026-11-01&timezone=America/New_York").then()
                .statusCode(200).body("metrics.total_runs", equalTo(2)).body("metrics.xfer_count", equalTo(0))
                .body("disposition_distribution.disposition", contains("VM"))
                .body("disposition_distribution[0].percentage", equalTo(100.0f));
        as(key).get("/api/v1/organizations/reports/daily?date=2026-11-01&timezone=UTC").then()
                .statusCode(200).body("metrics.total_runs", equalTo(2)).body("metrics.xfer_count", equalTo(1));
        as(key).get("/api/v1/organizations/reports/daily/runs?date=2026-11-01&timezone=America/New_York").then()
                .statusCode(200).body("created_at", contains("2026-11-01T04:30:00Z", "2026-11-02T04:30:00Z"))
                .body("phone_number", contains("+442071838750", "+442071838750"));
    }

    @Test
    void theDailyReportFoldsTheTailAndItsPercentagesAddUpToAHundred() {
        Instant day = Instant.parse("2026-06-10T12:00:00Z");
        String[] dispositions = {"XFER", "XFER", "XFER", "VM", "VM", "NA", "BUSY", "DNC", "HANGUP", "ODD"};
        int[] seconds = {5, 12, 45, 70, 130, 200, 9, 31, 61, 181};
        for (int i = 0; i < dispositions.length; i++) {
            run("twilio", day.plusSeconds(i), seconds[i], "{\"call_duration_seconds\": " + seconds[i] + "}",
                    dispositions[i], "outbound");
        }
        run("twilio", day.plusSeconds(20), null, "{}", null, "outbound"); // gathered nothing, no duration
        JsonPath report = as(key).get("/api/v1/organizations/reports/daily?date=2026-06-10&timezone=Europe/Paris")
                .then().statusCode(200).body("date", equalTo("2026-06-10")).body("timezone", equalTo("Europe/Paris"))
                .body("workflow_id", nullValue()).body("metrics.total_runs", equalTo(11))
                .body("metrics.xfer_count", equalTo(3))
                .body("disposition_distribution.disposition", contains("XFER", "VM", "BUSY", "DNC", "HANGUP", "Other"))
                .body("disposition_distribution.count", contains(3, 2, 1, 1, 1, 2))
                .body("call_duration_distribution.bucket", contains("0-10", "10-30", "30-60", "60-120", "120-180",
                        ">180"))
                .body("call_duration_distribution.count", contains(2, 1, 2, 2, 1, 2))
                .body("call_duration_distribution[5].range_end", nullValue())
                .extract().jsonPath();
        assertThat(report.getList("disposition_distribution.percentage", BigDecimal.class).stream()
                .reduce(BigDecimal.ZERO, BigDecimal::add)).isEqualByComparingTo("100");
        assertThat(report.getList("call_duration_distribution.percentage", BigDecimal.class).stream()
                .reduce(BigDecimal.ZERO, BigDecimal::add)).isEqualByComparingTo("100");

        as(key).get("/api/v1/organizations/reports/daily?date=2026-06-10&timezone=UTC&workflow_id=" + workflow).then()
                .statusCode(200).body("metrics.total_runs", equalTo(11)).body("workflow_id", equalTo((int) workflow));
        as(otherKey).get("/api/v1/organizations/reports/daily?date=2026-06-10&timezone=UTC&workflow_id=" + workflow)
                .then().statusCode(404);
        as(otherKey).get("/api/v1/organizations/reports/daily?date=2026-06-10&timezone=UTC").then().statusCode(200)
                .body("metrics.total_runs", equalTo(0)).body("disposition_distribution", hasSize(0));
        as(key).get("/api/v1/organizations/reports/daily?date=10/06/2026&timezone=UTC").then().statusCode(422)
                .body("detail[0].loc", contains("query", "date"));
        as(key).get("/api/v1/organizations/reports/daily?date=2026-06-10&timezone=Mars/Olympus").then()
                .statusCode(422).body("detail[0].loc", contains("query", "timezone"));
        as(key).get("/api/v1/organizations/reports/daily?timezone=UTC").then().statusCode(422);
        List<Map<String, Object>> runs = as(key).get("/api/v1/organizations/reports/daily/runs?date=2026-06-10"
                + "&timezone=UTC").then().statusCode(200).body("$", hasSize(11)).extract().jsonPath().getList("$");
        assertThat(runs.getFirst()).containsEntry("disposition", "XFER").containsEntry("duration_seconds", 5.0f)
                .containsEntry("workflow_name", "Caller");
        as(key).get("/api/v1/organizations/reports/workflows").then().statusCode(200)
                .body("id", contains((int) workflow)).body("name", contains("Caller"));
        as(otherKey).get("/api/v1/organizations/reports/workflows").then().statusCode(200).body("$", hasSize(0));
    }

    /** Every usage list and report costs the same statements for one row as for forty. */
    @Test
    void theUsageListsAndReportsCostAConstantNumberOfStatements() {
        org.assertj.core.api.Assumptions.assumeThat(sql.update("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"))
                .isGreaterThanOrEqualTo(0);
        sql.update("UPDATE organizations SET price_per_second = 0.01 WHERE id = ?", account.organizationId());
        Instant day = Instant.parse("2026-07-01T12:00:00Z");
        run("twilio", day, 30, "{}", "XFER", "outbound");
        awaitMetered(account.organizationId(), 1);
        List<String> paths = List.of("/api/v1/organizations/usage/runs?limit=100",
                "/api/v1/organizations/billing/credits?limit=100",
                "/api/v1/organizations/reports/daily/runs?date=2026-07-01&timezone=UTC",
                "/api/v1/organizations/reports/daily?date=2026-07-01&timezone=UTC",
                "/api/v1/organizations/reports/workflows", "/api/v1/organizations/usage/current-period",
                "/api/v1/organizations/usage/daily-breakdown?days=30");
        paths.forEach(path -> as(key).get(path).then().statusCode(200)); // warm up (the key's first use)
        List<Long> forOne = paths.stream().map(this::statementsDuring).toList();
        for (int i = 1; i < 40; i++) {
            run("twilio", day.plusSeconds(i), 30 + i, "{}", i % 2 == 0 ? "VM" : "NA", "outbound");
            sql.workflow(account.organizationId(), "more " + i);
        }
        awaitMetered(account.organizationId(), 40);
        as(key).get(paths.getFirst()).then().body("runs", hasSize(40));
        as(key).get(paths.get(1)).then().body("ledger_entries", hasSize(40));
        as(key).get(paths.get(2)).then().body("$", hasSize(40));
        as(key).get(paths.get(4)).then().body("$", hasSize(40));
        List<Long> forForty = paths.stream().map(this::statementsDuring).toList();
        assertThat(forForty).as("statements per request for %s", paths).isEqualTo(forOne);
        assertThat(forForty).allSatisfy(n -> assertThat(n).isBetween(1L, 6L));
    }

    /** Statements while the request runs (background ticks are marked and not counted; the fewest of five). */
    private long statementsDuring(String path) {
        String count = "SELECT coalesce(sum(calls), 0) FROM pg_stat_statements WHERE query NOT ILIKE"
                + " '%pg_stat_statements%' AND query NOT LIKE '/* background tick */%'"
                + " AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())";
        long fewest = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            sql.queryLong("SELECT count(*) FROM (SELECT pg_stat_statements_reset()) AS reset");
            long before = sql.queryLong(count);
            as(key).get(path).then().statusCode(200);
            fewest = Math.min(fewest, sql.queryLong(count) - before);
        }
        return fewest;
    }
}
