package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
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
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Runs, their filters and report, and the agent setup / preview / pilot-review summaries. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class WorkflowRunsEndToEndTest {

    @Inject
    AgroalDataSource dataSource;

    private Sql sql;
    private Api.Account account;
    private String key;
    private String otherKey;
    private long workflow;

    private RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void workflowWithTemplateVariables() {
        sql = new Sql(dataSource);
        account = Api.signUp("runs");
        key = Api.createKey(account, "k");
        otherKey = Api.createKey(Api.signUp("runs-other"), "k");
        workflow = as(key).body(Map.of("name", "Caller", "workflow_definition",
                        WorkflowEndToEndTest.definition("Call {{first_name}} about {{topic}}")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    @AfterEach
    void backToNow() {
        TestClock.reset();
    }

    /** A finished run as the call engine would leave it. */
    private long finishedRun(String createdAt, double duration, String disposition, Map<String, Object> extracted,
            String phone) {
        long definition = sql.queryLong("SELECT id FROM workflow_definitions WHERE workflow_id = ? AND status = 'published'",
                workflow);
        return sql.insertReturningId("INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name, mode,"
                        + " is_completed, state, usage_info, cost_info, initial_context, gathered_context, created_at)"
                        + " VALUES (?, ?, ?, 'call', 'twilio', true, 'completed', ?::jsonb, ?::jsonb, ?::jsonb, ?::jsonb, ?::timestamptz)",
                account.organizationId(), workflow, definition,
                "{\"call_duration_seconds\": " + duration + "}", "{\"dograh_token_usage\": " + (duration * 10) + "}",
                "{\"phone_number\": \"" + phone + "\"}",
                "{\"mapped_call_disposition\": \"" + disposition + "\", \"call_tags\": [\"a\", \"b\"],"
                        + " \"extracted_variables\": " + toJson(extracted) + "}", createdAt);
    }

    private static String toJson(Map<String, Object> map) {
        StringBuilder out = new StringBuilder("{");
        map.forEach((k, v) -> out.append(out.length() > 1 ? "," : "").append('"').append(k).append("\":\"").append(v).append('"'));
        return out.append('}').toString();
    }

    @Test
    void aTestRunBindsTheDraftOrPublishedVersionAndItsVariables() {
        long published = as(key).get("/api/v1/workflow/fetch/" + workflow).then().extract().jsonPath()
                .getLong("current_definition_id");
        as(key).body(Map.of("mode", "webrtc", "name", "try 1")).post("/api/v1/workflow/" + workflow + "/runs").then()
                .statusCode(200).body("definition_id", equalTo((int) published)).body("mode", equalTo("webrtc"))
                .body("name", equalTo("try 1"));
        as(key).body(Map.of("template_context_variables", Map.of("first_name", "Ann", "direction", "outbound")))
                .put("/api/v1/workflow/" + workflow).then().statusCode(200);
        long draft = as(key).get("/api/v1/workflow/fetch/" + workflow).then().extract().jsonPath().getLong("version_number");
        assertThat(draft).isEqualTo(2);
        long runId = as(key).body(Map.of("mode", "smallwebrtc", "name", "try 2")).post("/api/v1/workflow/" + workflow + "/runs")
                .then().statusCode(200).body("initial_context.first_name", equalTo("Ann"))
                .extract().jsonPath().getLong("id");
        long draftId = sql.queryLong("SELECT id FROM workflow_definitions WHERE workflow_id = ? AND status = 'draft'", workflow);
        as(key).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(200)
                .body("definition_id", equalTo((int) draftId)).body("call_type", equalTo("outbound"))
                .body("is_completed", equalTo(false)).body("recording_url", nullValue());
        as(key).body(Map.of("mode", "carrier-pigeon", "name", "x")).post("/api/v1/workflow/" + workflow + "/runs")
                .then().statusCode(400).body("detail", containsString("mode must be one of"));
        as(key).body(Map.of("name", "x")).post("/api/v1/workflow/" + workflow + "/runs").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "mode")));
        as(otherKey).get("/api/v1/workflow/" + workflow + "/runs/" + runId).then().statusCode(404);
        as(otherKey).body(Map.of("mode", "webrtc", "name", "x")).post("/api/v1/workflow/" + workflow + "/runs")
                .then().statusCode(404);
    }

    @Test
    void runsArePagedFilteredAndSorted() {
        finishedRun("2026-03-01T10:00:00Z", 30, "interested", Map.of(), "+15550001");
        finishedRun("2026-03-02T10:00:00Z", 90, "not_interested", Map.of(), "+15550002");
        finishedRun("2026-03-03T10:00:00Z", 60, "interested", Map.of(), "+15550003");
        String base = "/api/v1/workflow/" + workflow + "/runs";
        as(key).get(base + "?limit=2").then().statusCode(200).body("total_count", equalTo(3))
                .body("total_pages", equalTo(2)).body("page", equalTo(1)).body("limit", equalTo(2))
                .body("runs", hasSize(2)).body("runs[0].created_at", equalTo("2026-03-03T10:00:00Z"))
                .body("applied_filters", nullValue());
        as(key).get(base + "?limit=2&page=2").then().statusCode(200).body("runs", hasSize(1));
        as(key).get(base + "?sort_by=duration&sort_order=asc").then().statusCode(200)
                .body("runs.usage_info.call_duration_seconds", equalTo(List.of(30.0f, 60.0f, 90.0f)));
        as(key).queryParam("filters", "[{\"attribute\":\"dispositionCode\",\"value\":{\"codes\":[\"interested\"]}}]")
                .get(base).then().statusCode(200).body("total_count", equalTo(2))
                .body("applied_filters[0].attribute", equalTo("dispositionCode"));
        as(key).queryParam("filters", "[{\"attribute\":\"duration\",\"value\":{\"min\":50,\"max\":100}}]")
                .get(base).then().statusCode(200).body("total_count", equalTo(2));
        as(key).queryParam("filters", "[{\"attribute\":\"dateRange\",\"value\":{\"from\":\"2026-03-02T00:00:00Z\"}},"
                + "{\"attribute\":\"status\",\"value\":{\"status\":\"completed\"}},"
                + "{\"attribute\":\"tokenUsage\",\"value\":{\"max\":700}}]").get(base).then().statusCode(200)
                .body("total_count", equalTo(1));
        as(key).queryParam("filters", "not json").get(base).then().statusCode(400).body("detail", equalTo("Invalid filter format"));
        as(key).queryParam("filters", "[{\"attribute\":\"phone\",\"value\":{}}]").get(base).then().statusCode(400)
                .body("detail", equalTo("Invalid attribute 'phone'"));
        as(key).get(base + "?page=0").then().statusCode(422).body("detail[0].loc", equalTo(List.of("query", "page")));
        as(key).get(base + "?limit=101").then().statusCode(422).body("detail[0].loc", equalTo(List.of("query", "limit")));
        as(key).get(base + "?sort_order=sideways").then().statusCode(422);
        as(otherKey).get(base).then().statusCode(404);
    }

    @Test
    void theReportIsACsvAttachmentWithExtractedVariableColumns() {
        long older = finishedRun("2026-03-01T10:00:00Z", 30, "interested", Map.of("budget", "10k"), "+15550001");
        long newer = finishedRun("2026-03-05T10:00:00Z", 42.5, "callback", Map.of("callback_time", "Friday, 3pm"),
                "+15550002");
        as(key).body(Map.of("mode", "webrtc", "name", "unfinished")).post("/api/v1/workflow/" + workflow + "/runs")
                .then().statusCode(200);
        Response response = as(key).get("/api/v1/workflow/" + workflow + "/report").then().statusCode(200)
                .header("Content-Disposition", containsString("workflow_" + workflow + "_report.csv"))
                .contentType(containsString("text/csv")).extract().response();
        List<String> lines = response.asString().lines().toList();
        assertThat(lines).hasSize(3);
        assertThat(lines.get(0)).isEqualTo("Run ID,Campaign ID,Agent ID,Agent Definition ID,Created At,Phone Number,"
                + "Call Disposition,Call Duration (s),callback_time,budget,Call Tags,Transcript URL,Recording URL");
        assertThat(lines.get(1)).startsWith(newer + ",," + workflow + ",")
                .contains(",+15550002,callback,42.5,\"Friday, 3pm\",,\"a, b\",,");
        assertThat(lines.get(2)).startsWith(older + ",").contains(",interested,30,,10k,");
        String filtered = as(key).get("/api/v1/workflow/" + workflow + "/report?start_date=2026-03-02").then()
                .statusCode(200).extract().asString();
        assertThat(filtered.lines().toList()).hasSize(2);
        as(key).get("/api/v1/workflow/" + workflow + "/report?end_date=yesterday").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("query", "end_date")));
        as(otherKey).get("/api/v1/workflow/" + workflow + "/report").then().statusCode(404);
    }

    @Test
    void theReportIsStreamedInBatchesAcrossManyRuns() {
        long definition = sql.queryLong("SELECT id FROM workflow_definitions WHERE workflow_id = ?", workflow);
        sql.update("INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name, mode, is_completed,"
                + " usage_info, created_at) SELECT ?, ?, ?, 'bulk', 'twilio', true, '{\"call_duration_seconds\": 5}',"
                + " '2026-01-01'::timestamptz + make_interval(secs => g) FROM generate_series(1, 1203) g",
                account.organizationId(), workflow, definition);
        String csv = as(key).get("/api/v1/workflow/" + workflow + "/report").then().statusCode(200).extract().asString();
        List<String> lines = csv.lines().toList();
        assertThat(lines).hasSize(1204);
        assertThat(lines.stream().skip(1).map(l -> l.split(",")[0]).distinct().count()).isEqualTo(1203);
    }

    @Test
    void agentSetupPreviewAndPilotReview() {
        as(key).get("/api/v1/workflow/" + workflow + "/agent-setup").then().statusCode(200)
                .body("workflow_id", equalTo((int) workflow)).body("ready", equalTo(false))
                .body("steps.key", equalTo(List.of("published_version_valid", "telephony_ready", "test_run_exists")))
                .body("steps.done", equalTo(List.of(true, false, false)));
        as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator")))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
        as(key).body(Map.of("mode", "webrtc", "name", "t")).post("/api/v1/workflow/" + workflow + "/runs").then().statusCode(200);
        as(key).get("/api/v1/workflow/" + workflow + "/agent-setup").then().statusCode(200).body("ready", equalTo(true));

        as(key).body(Map.of("context_variables", Map.of("first_name", "Ann"))).post("/api/v1/workflow/" + workflow
                + "/agent-preview").then().statusCode(200).body("greeting", equalTo("Hi Ann"))
                .body("prompts[0].prompt", equalTo("Call Ann about {{topic}}"))
                .body("unresolved_variables", equalTo(List.of("topic")));
        as(key).post("/api/v1/workflow/" + workflow + "/agent-preview").then().statusCode(200)
                .body("unresolved_variables", equalTo(List.of("first_name", "topic")));

        finishedRun("2026-03-01T10:00:00Z", 30, "interested", Map.of(), "+1");
        finishedRun("2026-03-02T10:00:00Z", 90, "failed", Map.of(), "+2");
        as(key).get("/api/v1/workflow/" + workflow + "/pilot-review").then().statusCode(200)
                .body("run_count", equalTo(3)).body("completed_count", equalTo(2))
                .body("dispositions.interested", equalTo(1)).body("dispositions.failed", equalTo(1))
                .body("average_duration_seconds", equalTo(60.0f)).body("failures", equalTo(1))
                .body("recent_problems[0].problem", equalTo("Call ended as failed"));
        as(otherKey).get("/api/v1/workflow/" + workflow + "/agent-setup").then().statusCode(404);
        as(otherKey).post("/api/v1/workflow/" + workflow + "/agent-preview").then().statusCode(404);
        as(otherKey).get("/api/v1/workflow/" + workflow + "/pilot-review").then().statusCode(404);
    }

    @Test
    void aBrowserRunWhoseMediaNeverConnectedIsClosedAsAbandonedACallWhoseReplicaDiedAsMediaLostAndOthersAreLeftAlone() throws InterruptedException {
        String runs = "/api/v1/workflow/" + workflow + "/runs";
        as(key).body(Map.of("url", "https://crm.example.com/hooks", "event_types", List.of("run.completed")))
                .post("/api/v1/webhook-endpoints").then().statusCode(200);
        long browser = as(key).body(Map.of("mode", "webrtc", "name", "closed tab")).post(runs).then().statusCode(200)
                .extract().jsonPath().getLong("id");
        long definition = sql.queryLong("SELECT id FROM workflow_definitions WHERE workflow_id = ? AND status = 'published'",
                workflow);
        long queuedPhoneCall = sql.insertReturningId("INSERT INTO workflow_runs (organization_id, workflow_id,"
                + " definition_id, name, mode, is_completed, state, created_at) VALUES (?, ?, ?, 'queued', 'twilio', false,"
                + " 'initialized', now())", account.organizationId(), workflow, definition);
        long connected = as(key).body(Map.of("mode", "smallwebrtc", "name", "in a call")).post(runs).then()
                .statusCode(200).extract().jsonPath().getLong("id");
        sql.update("UPDATE workflow_runs SET state = 'running' WHERE id = ?", connected);
        // two phone calls whose media a replica holds: one replica still beats, the other died mid-call
        long talking = sql.insertReturningId("INSERT INTO workflow_runs (organization_id, workflow_id, definition_id,"
                + " name, mode, is_completed, state, created_at, media_owner, media_heartbeat_at) VALUES (?, ?, ?,"
                + " 'talking', 'twilio', false, 'running', now(), 'live-replica', now() + interval '10 minutes')",
                account.organizationId(), workflow, definition);
        long orphaned = sql.insertReturningId("INSERT INTO workflow_runs (organization_id, workflow_id, definition_id,"
                + " name, mode, is_completed, state, created_at, media_owner, media_heartbeat_at, usage_info) VALUES"
                + " (?, ?, ?, 'cut off', 'twilio', false, 'running', now(), 'dead-replica', now(),"
                + " '{\"call_duration_seconds\": 12}'::jsonb)", account.organizationId(), workflow, definition);

        Thread.sleep(1_500); // a tick before the five minutes: nothing is closed
        assertThat(run(orphaned).getBoolean("is_completed")).isFalse();
        assertThat(run(browser).getBoolean("is_completed")).isFalse();

        TestClock.advance(Duration.ofMinutes(6));
        JsonPath closed = null;
        for (int i = 0; i < 50; i++) {
            closed = run(browser);
            if (closed.getBoolean("is_completed")) {
                break;
            }
            Thread.sleep(200);
        }
        assertThat(closed.getBoolean("is_completed")).isTrue();
        assertThat(closed.getString("gathered_context.call_disposition")).isEqualTo("abandoned");
        assertThat(closed.getFloat("usage_info.call_duration_seconds")).isZero();
        assertThat(sql.queryString("SELECT payload->'data'->>'disposition' FROM webhook_deliveries"
                + " WHERE event_type = 'run.completed' AND (payload->'data'->>'workflow_run_id')::bigint = ?", browser))
                .as("the closed run announces its completion").isEqualTo("abandoned");
        assertThat(run(queuedPhoneCall).getBoolean("is_completed")).isFalse();
        assertThat(run(connected).getBoolean("is_completed")).isFalse();
        assertThat(run(talking).getBoolean("is_completed")).as("a call whose replica beats goes on").isFalse();

        // the call whose replica died is settled, not in progress forever; its media is free, its values kept
        JsonPath cut = run(orphaned);
        for (int i = 0; i < 50 && !cut.getBoolean("is_completed"); i++) {
            Thread.sleep(100); // closed in the same tick, right after the browser run
            cut = run(orphaned);
        }
        assertThat(cut.getBoolean("is_completed")).isTrue();
        assertThat(cut.getString("gathered_context.call_disposition")).isEqualTo("media_lost");
        assertThat(cut.getString("gathered_context.error")).contains("stopped");
        assertThat(cut.getFloat("usage_info.call_duration_seconds")).isEqualTo(12f);
        assertThat(sql.queryString("SELECT coalesce(media_owner, 'released') FROM workflow_runs WHERE id = ?",
                orphaned)).isEqualTo("released");
        assertThat(sql.queryString("SELECT payload->'data'->>'disposition' FROM webhook_deliveries"
                + " WHERE event_type = 'run.completed' AND (payload->'data'->>'workflow_run_id')::bigint = ?", orphaned))
                .isEqualTo("media_lost");
        as(key).queryParam("filters", "[{\"attribute\":\"dispositionCode\",\"value\":{\"codes\":[\"abandoned\"]}}]")
                .get(runs).then().statusCode(200).body("total_count", equalTo(1)).body("runs[0].id", equalTo((int) browser));
    }

    private JsonPath run(long id) {
        return as(key).get("/api/v1/workflow/" + workflow + "/runs/" + id).then().statusCode(200).extract().jsonPath();
    }
}
