package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** POST /campaign/create: every check in order, nothing stored on failure, the campaign on success. */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class CreateCampaignEndToEndTest {

    @Inject
    AgroalDataSource dataSource;

    private Api.Account account;
    private String key;
    private long workflow;

    private RequestSpecification as(String apiKey) {
        return given().header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    @BeforeEach
    void workflowNeedingFirstName() {
        account = Api.signUp("create");
        key = Api.createKey(account, "k");
        workflow = as(key).body(Map.of("name", "Caller", "workflow_definition",
                        WorkflowEndToEndTest.definition("Remind {{first_name}}")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    private void simulator() {
        as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator")))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
    }

    private String upload(String csv) {
        var presigned = as(key).body(Map.of("file_name", "contacts.csv", "file_size",
                        csv.getBytes(StandardCharsets.UTF_8).length))
                .post("/api/v1/object-store/presigned-upload-url").then().statusCode(200).extract().jsonPath();
        given().contentType("text/csv; charset=UTF-8").body(csv.getBytes(StandardCharsets.UTF_8))
                .put(presigned.getString("upload_url")).then().statusCode(200);
        return presigned.getString("file_key");
    }

    private Map<String, Object> request(String source) {
        Map<String, Object> body = new HashMap<>();
        body.put("name", "Spring reminders");
        body.put("workflow_id", workflow);
        body.put("source_type", "csv");
        body.put("source_id", source);
        return body;
    }

    private long campaigns() {
        return new Sql(dataSource).queryLong("SELECT count(*) FROM campaigns WHERE organization_id = ?",
                account.organizationId());
    }

    @Test
    void aValidSourceCreatesTheCampaignWithItsSettingsAndALogEntry() {
        simulator();
        String source = upload("\uFEFFPhone_Number,first_name,notes\r\n+1 555 000 0011,Ann,\"likes mornings, early\"\r\n"
                + "+15550000012,\"Bob\nJr\",\"said \"\"call back\"\"\"\r\n");
        Map<String, Object> body = request(source);
        body.put("max_concurrency", 3);
        body.put("retry_config", Map.of("max_retries", 3, "retry_on_voicemail", true));
        body.put("schedule_config", Map.of("timezone", "Europe/Berlin", "slots",
                List.of(Map.of("day_of_week", 0, "start_time", "09:00", "end_time", "17:00"))));
        body.put("circuit_breaker", Map.of("failure_threshold", 0.3));
        as(key).body(body).post("/api/v1/campaign/create").then().statusCode(200)
                .body("state", equalTo("created")).body("name", equalTo("Spring reminders"))
                .body("source_id", equalTo(source)).body("max_concurrency", equalTo(3))
                .body("retry_config.max_retries", equalTo(3)).body("retry_config.retry_delay_seconds", equalTo(120))
                .body("retry_config.retry_on_voicemail", equalTo(true))
                .body("schedule_config.enabled", equalTo(true)).body("schedule_config.timezone", equalTo("Europe/Berlin"))
                .body("circuit_breaker.enabled", equalTo(true)).body("circuit_breaker.failure_threshold", equalTo(0.3f))
                .body("telephony_configuration_name", equalTo("Laptop")).body("workflow_name", equalTo("Caller"))
                .body("logs[0].event", equalTo("created")).body("logs[0].details.source_rows", equalTo(2));
    }

    /** A calling window three days from today (UTC): closed now in every time zone. */
    static Map<String, Object> closedWindow() {
        int day = (LocalDate.now(ZoneOffset.UTC).getDayOfWeek().getValue() - 1 + 3) % 7;
        return Map.of("enabled", true, "timezone", "UTC",
                "slots", List.of(Map.of("day_of_week", day, "start_time", "09:00", "end_time", "17:00")));
    }

    private io.restassured.path.json.JsonPath awaitState(long campaignId, String state) throws InterruptedException {
        Instant deadline = Instant.now().plusSeconds(10);
        io.restassured.path.json.JsonPath campaign = null;
        while (Instant.now().isBefore(deadline)) {
            campaign = as(key).get("/api/v1/campaign/" + campaignId).then().statusCode(200).extract().jsonPath();
            if (state.equals(campaign.getString("state"))) {
                return campaign;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("campaign " + campaignId + " never reached " + state + ": " + campaign.prettify());
    }

    @Test
    void startImportsTheContactsAndPauseAndResumeAreLogged() throws Exception {
        simulator();
        StringBuilder csv = new StringBuilder("phone_number,first_name,timezone\n");
        for (int i = 0; i < 2500; i++) {
            csv.append("+1555%07d,Name %d,%s\n".formatted(i, i, i % 2 == 0 ? "Europe/Berlin" : ""));
        }
        Map<String, Object> body = request(upload(csv.toString()));
        body.put("schedule_config", closedWindow()); // the dispatcher leaves the contacts to this test
        long id = as(key).body(body).post("/api/v1/campaign/create").then().statusCode(200)
                .extract().jsonPath().getLong("id");
        as(key).post("/api/v1/campaign/" + id + "/pause").then().statusCode(400).body("detail",
                equalTo("Campaign must be in 'running' or 'syncing' state to pause, current state: created"));
        as(key).get("/api/v1/campaign/" + id + "/progress").then().statusCode(200)
                .body("state", equalTo("created")).body("total_rows", equalTo(0))
                .body("source_sync.status", equalTo("pending")).body("started_at", org.hamcrest.Matchers.nullValue())
                .body("rate_limit", equalTo(10));
        as(key).post("/api/v1/campaign/" + id + "/start").then().statusCode(200).body("started_at", org.hamcrest.Matchers.notNullValue());
        var running = awaitState(id, "running");
        assertThat(running.getInt("total_rows")).isEqualTo(2500);
        assertThat(running.getList("logs.event")).containsExactly("created", "started", "contacts_loaded");
        Sql sql = new Sql(dataSource);
        assertThat(sql.queryLong("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ?", id)).isEqualTo(2500);
        assertThat(sql.queryLong("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ? AND timezone = 'Europe/Berlin'"
                + " AND context->>'first_name' LIKE 'Name %' AND state = 'pending'", id)).isEqualTo(1250);
        as(key).post("/api/v1/campaign/" + id + "/start").then().statusCode(400)
                .body("detail", equalTo("Campaign must be in 'created' state to start, current state: running"));
        // progress is counted from the contacts: 3 finished (file rows 2-4, the header is row 1), 2 of them
        // with a failed / unanswered last call; one busy contact waiting for its retry is not processed yet
        sql.update("UPDATE campaign_contacts SET state = 'done', last_outcome = CASE row_number WHEN 2 THEN 'completed'"
                + " WHEN 3 THEN 'no-answer' ELSE 'failed' END WHERE campaign_id = ? AND row_number <= 4", id);
        sql.update("UPDATE campaign_contacts SET state = 'waiting_retry', last_outcome = 'busy'"
                + " WHERE campaign_id = ? AND row_number = 5", id);
        as(key).get("/api/v1/campaign/" + id + "/progress").then().statusCode(200)
                .body("campaign_id", equalTo((int) id)).body("state", equalTo("running"))
                .body("total_rows", equalTo(2500)).body("processed_rows", equalTo(3)).body("failed_calls", equalTo(2))
                .body("progress_percentage", equalTo(0.12f)).body("source_sync.status", equalTo("completed"))
                .body("source_sync.last_synced_at", org.hamcrest.Matchers.notNullValue())
                .body("source_sync.error", org.hamcrest.Matchers.nullValue())
                .body("rate_limit", equalTo(10)).body("started_at", org.hamcrest.Matchers.notNullValue())
                .body("completed_at", org.hamcrest.Matchers.nullValue())
                .body("dispatch.window_open", equalTo(false)).body("dispatch.next_window_at", startsWith("20"))
                .body("dispatch.pending", equalTo(2496)).body("dispatch.waiting_retry", equalTo(1))
                .body("dispatch.outcomes.'no-answer'", equalTo(1)).body("dispatch.active_calls", equalTo(0));
        as(key).post("/api/v1/campaign/" + id + "/pause").then().statusCode(200).body("state", equalTo("paused"));
        as(key).post("/api/v1/campaign/" + id + "/resume").then().statusCode(200).body("state", equalTo("running"))
                .body("logs.event", equalTo(List.of("created", "started", "contacts_loaded", "paused", "resumed")));
        as(key).post("/api/v1/campaign/" + id + "/resume").then().statusCode(400)
                .body("detail", equalTo("Campaign must be in 'paused' state to resume, current state: running"));
        String otherKey = Api.createKey(Api.signUp("create-other"), "k");
        as(otherKey).post("/api/v1/campaign/" + id + "/pause").then().statusCode(404)
                .body("detail", equalTo("Campaign not found"));
        as(otherKey).get("/api/v1/campaign/" + id + "/progress").then().statusCode(404)
                .body("detail", equalTo("Campaign not found"));
    }

    @Test
    void patchChangesOnlyTheGivenSettingsUntilTheCampaignFinishes() {
        simulator();
        Map<String, Object> body = request(upload("phone_number,first_name\n+15550000031,Ann\n"));
        body.put("retry_config", Map.of("max_retries", 4));
        long id = as(key).body(body).post("/api/v1/campaign/create").then().statusCode(200)
                .extract().jsonPath().getLong("id");
        String path = "/api/v1/campaign/" + id;
        as(key).body(Map.of("name", "Autumn reminders", "max_concurrency", 2, "schedule_config",
                        Map.of("timezone", "America/New_York", "slots",
                                List.of(Map.of("day_of_week", 4, "start_time", "10:00", "end_time", "12:00")))))
                .patch(path).then().statusCode(200)
                .body("name", equalTo("Autumn reminders")).body("max_concurrency", equalTo(2))
                .body("schedule_config.timezone", equalTo("America/New_York"))
                .body("schedule_config.slots[0].day_of_week", equalTo(4))
                .body("retry_config.max_retries", equalTo(4)) // not given: unchanged
                .body("logs.event", equalTo(List.of("created", "updated")))
                .body("logs[1].details.changed", equalTo(List.of("name", "max_concurrency", "schedule_config")));
        as(key).get(path).then().statusCode(200).body("name", equalTo("Autumn reminders"))
                .body("max_concurrency", equalTo(2)).body("retry_config.max_retries", equalTo(4));

        as(key).body(Map.of("max_concurrency", 11)).patch(path).then().statusCode(400)
                .body("detail", equalTo("max_concurrency (11) cannot exceed organization limit (10)"));
        as(key).body(Map.of("max_concurrency", 101)).patch(path).then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("body", "max_concurrency")));
        as(key).body(Map.of("name", "")).patch(path).then().statusCode(422);
        as(key).body(Map.of("schedule_config", Map.of("timezone", "Mars/Olympus", "slots",
                        List.of(Map.of("day_of_week", 0, "start_time", "09:00", "end_time", "17:00")))))
                .patch(path).then().statusCode(400).body("detail", equalTo("Invalid timezone: Mars/Olympus"));
        String otherKey = Api.createKey(Api.signUp("patch-other"), "k");
        as(otherKey).body(Map.of("name", "mine now")).patch(path).then().statusCode(404)
                .body("detail", equalTo("Campaign not found"));
        // the refused changes left the campaign as it was
        as(key).get(path).then().statusCode(200).body("name", equalTo("Autumn reminders"))
                .body("max_concurrency", equalTo(2)).body("logs.event", equalTo(List.of("created", "updated")));

        new Sql(dataSource).update("UPDATE campaigns SET state = 'completed' WHERE id = ?", id);
        as(key).body(Map.of("name", "Too late")).patch(path).then().statusCode(400)
                .body("detail", equalTo("Cannot update a completed campaign"));
    }

    @Test
    void runsListOnlyTheCampaignsOwnRunsPagedAndSorted() {
        simulator();
        long id = as(key).body(request(upload("phone_number,first_name\n+15550000041,Ann\n")))
                .post("/api/v1/campaign/create").then().statusCode(200).extract().jsonPath().getLong("id");
        Sql sql = new Sql(dataSource);
        long definition = sql.queryLong(
                "SELECT id FROM workflow_definitions WHERE workflow_id = ? AND status = 'published'", workflow);
        String insert = "INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name, mode, is_completed,"
                + " state, usage_info, campaign_id, created_at) VALUES (?, ?, ?, ?, 'simulator', true, 'completed',"
                + " ?::jsonb, ?, ?::timestamptz)";
        long first = sql.insertReturningId(insert, account.organizationId(), workflow, definition, "c1",
                "{\"call_duration_seconds\": 30}", id, "2026-11-01T10:00:00Z");
        long second = sql.insertReturningId(insert, account.organizationId(), workflow, definition, "c2",
                "{\"call_duration_seconds\": 5}", id, "2026-11-01T11:00:00Z");
        long third = sql.insertReturningId(insert, account.organizationId(), workflow, definition, "c3",
                "{\"call_duration_seconds\": 12}", id, "2026-11-01T12:00:00Z");
        // a run of the same workflow outside the campaign is not listed
        sql.insertReturningId(insert, account.organizationId(), workflow, definition, "test", "{}", null,
                "2026-11-01T13:00:00Z");
        String path = "/api/v1/campaign/" + id + "/runs";

        as(key).get(path).then().statusCode(200).body("total_count", equalTo(3)).body("total_pages", equalTo(1))
                .body("page", equalTo(1)).body("limit", equalTo(50))
                .body("runs.id", equalTo(List.of((int) third, (int) second, (int) first)))
                .body("runs[0].workflow_id", equalTo((int) workflow)).body("runs[0].is_completed", equalTo(true));
        as(key).get(path + "?limit=2&page=2").then().statusCode(200).body("total_pages", equalTo(2))
                .body("runs.id", equalTo(List.of((int) first)));
        as(key).get(path + "?sort_by=duration&sort_order=asc").then().statusCode(200)
                .body("runs.id", equalTo(List.of((int) second, (int) third, (int) first)));
        as(key).get(path + "?filters=not-json").then().statusCode(400).body("detail", equalTo("Invalid filter format"));
        as(key).get(path + "?limit=101").then().statusCode(422);
        as(key).get(path + "?sort_order=sideways").then().statusCode(422);
        String otherKey = Api.createKey(Api.signUp("runs-other"), "k");
        as(otherKey).get(path).then().statusCode(404).body("detail", equalTo("Campaign not found"));

        // the report: the campaign's finished calls newest first, bounded by the dates (inclusive)
        String report = "/api/v1/campaign/" + id + "/report";
        var csv = as(key).get(report).then().statusCode(200)
                .header("Content-Disposition", equalTo("attachment; filename=\"campaign_" + id + "_report.csv\""))
                .contentType(startsWith("text/csv")).extract().asString();
        List<String> lines = csv.lines().toList();
        assertThat(lines.getFirst()).startsWith("Run ID,Campaign ID,Agent ID,Agent Definition ID,Created At,Phone Number");
        assertThat(lines.subList(1, lines.size())).extracting(l -> l.substring(0, l.indexOf(',')))
                .containsExactly(String.valueOf(third), String.valueOf(second), String.valueOf(first));
        assertThat(lines.get(1)).startsWith(third + "," + id + "," + workflow + ",");
        String bounded = as(key).get(report + "?start_date=2026-11-01T10:30:00Z&end_date=2026-11-01T11:00:00Z")
                .then().statusCode(200).extract().asString();
        assertThat(bounded.lines().skip(1).toList()).hasSize(1).allMatch(l -> l.startsWith(second + ","));
        as(key).get(report + "?start_date=yesterday").then().statusCode(422);
        as(otherKey).get(report).then().statusCode(404).body("detail", equalTo("Campaign not found"));
    }

    @Test
    void aRedialCallsTheUnreachedContactsOnceAndStartsStraightIntoRunning() throws Exception {
        simulator();
        long id = as(key).body(request(upload("phone_number,first_name\n+15550000051,Ann\n+15550000052,Bob\n"
                        + "+15550000053,Cy\n+15550000054,Di\n")))
                .post("/api/v1/campaign/create").then().statusCode(200).extract().jsonPath().getLong("id");
        String path = "/api/v1/campaign/" + id + "/redial";
        as(key).body(Map.of()).post(path).then().statusCode(400)
                .body("detail", equalTo("Only completed campaigns can be redialed (current state: created)"));
        as(key).post("/api/v1/campaign/" + id + "/start").then().statusCode(200);
        awaitState(id, "running");
        Sql sql = new Sql(dataSource);
        // as the dispatcher leaves them: one reached, one busy, one unanswered, one voicemail
        sql.update("UPDATE campaign_contacts SET state = 'done', last_outcome = CASE phone_number"
                + " WHEN '+15550000051' THEN 'completed' WHEN '+15550000052' THEN 'busy'"
                + " WHEN '+15550000053' THEN 'no-answer' ELSE 'voicemail' END WHERE campaign_id = ?", id);
        sql.update("UPDATE campaigns SET state = 'completed', completed_at = now() WHERE id = ?", id);

        as(key).body(Map.of("retry_on_voicemail", false, "retry_on_no_answer", false, "retry_on_busy", false))
                .post(path).then().statusCode(422);
        as(key).body(Map.of("retry_on_no_answer", false, "retry_on_busy", false, "retry_on_voicemail", false,
                "name", "")).post(path).then().statusCode(422);
        // with the voicemail contact reached after all, a voicemail-only redial matches nobody: 400, nothing stored
        sql.update("UPDATE campaign_contacts SET last_outcome = 'completed' WHERE campaign_id = ? AND phone_number = '+15550000054'", id);
        as(key).body(Map.of("retry_on_no_answer", false, "retry_on_busy", false)).post(path).then().statusCode(400)
                .body("detail", equalTo("No subscribers match the selected redial criteria"));
        as(key).get("/api/v1/campaign/" + id).then().body("redialed_campaign_id", org.hamcrest.Matchers.nullValue());

        var child = as(key).body(Map.of("retry_on_busy", false)).post(path).then().statusCode(200)
                .body("name", equalTo("Spring reminders (Redial)")).body("state", equalTo("created"))
                .body("parent_campaign_id", equalTo((int) id)).body("total_rows", equalTo(1))
                .body("telephony_configuration_name", equalTo("Laptop"))
                .extract().jsonPath();
        long childId = child.getLong("id");
        as(key).get("/api/v1/campaign/" + id).then().body("redialed_campaign_id", equalTo((int) childId));
        assertThat(sql.queryLong("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ? AND state = 'pending'"
                + " AND phone_number = '+15550000053' AND context->>'first_name' = 'Cy'", childId)).isEqualTo(1);
        as(key).body(Map.of()).post(path).then().statusCode(400)
                .body("detail", equalTo("This campaign has already been redialed"));
        as(key).post("/api/v1/campaign/" + childId + "/start").then().statusCode(200).body("state", equalTo("running"));
        as(key).get("/api/v1/campaign/" + childId + "/progress").then().statusCode(200)
                .body("source_sync.status", equalTo("completed")).body("total_rows", equalTo(1));
        String otherKey = Api.createKey(Api.signUp("redial-other"), "k");
        as(otherKey).body(Map.of()).post(path).then().statusCode(404).body("detail", equalTo("Campaign not found"));
    }

    @Test
    void startingWithoutAnyTelephonyConfigurationIs400NotTheReferences401() {
        long wf = new Sql(dataSource).workflow(account.organizationId(), "wf");
        long id = new Sql(dataSource).insertReturningId("INSERT INTO campaigns (organization_id, name, workflow_id,"
                + " source_id, retry_config) VALUES (?, 'c', ?, 'k', '{}')", account.organizationId(), wf);
        as(key).post("/api/v1/campaign/" + id + "/start").then().statusCode(400)
                .body("detail", equalTo("You must configure telephony first"));
        simulator();
        String otherKey = Api.createKey(Api.signUp("create-other2"), "k");
        as(otherKey).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator")))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
        as(otherKey).post("/api/v1/campaign/" + id + "/start").then().statusCode(404)
                .body("detail", equalTo("Campaign not found"));
    }

    @Test
    void campaignDefaultsShowTheLimitsTheEnginesDefaultsAndTheLastCampaignsSettings() {
        as(key).get("/api/v1/organizations/campaign-defaults").then().statusCode(200)
                .body("concurrent_call_limit", equalTo(10)).body("from_numbers_count", equalTo(0))
                .body("default_retry_config.max_retries", equalTo(1))
                .body("default_retry_config.retry_on_voicemail", equalTo(false))
                .body("last_campaign_settings", org.hamcrest.Matchers.nullValue());
        simulator();
        Map<String, Object> body = request(upload("phone_number,first_name\n+15550000011,Ann\n"));
        body.put("max_concurrency", 4);
        as(key).body(body).post("/api/v1/campaign/create").then().statusCode(200);
        new Sql(dataSource).update("UPDATE organizations SET concurrent_call_limit = 25 WHERE id = ?",
                account.organizationId());
        as(key).get("/api/v1/organizations/campaign-defaults").then().statusCode(200)
                .body("concurrent_call_limit", equalTo(25))
                .body("last_campaign_settings.max_concurrency", equalTo(4))
                .body("last_campaign_settings.circuit_breaker.enabled", equalTo(false))
                .body("last_campaign_settings.schedule_config", org.hamcrest.Matchers.nullValue());
    }

    @Test
    void theSourceCanBeDownloadedAgainAndAmbientNoiseUploadsAreSigned() {
        simulator();
        String csv = "phone_number,first_name\n+15550000011,Ann\n";
        long id = as(key).body(request(upload(csv))).post("/api/v1/campaign/create").then().statusCode(200)
                .extract().jsonPath().getLong("id");
        String url = as(key).get("/api/v1/campaign/" + id + "/source-download-url").then().statusCode(200)
                .body("expires_in", equalTo(3600)).extract().path("download_url");
        assertThat(given().get(url).then().statusCode(200).extract().asString()).isEqualTo(csv);
        String otherKey = Api.createKey(Api.signUp("create-dl"), "k");
        as(otherKey).get("/api/v1/campaign/" + id + "/source-download-url").then().statusCode(404);

        as(key).body(Map.of("workflow_id", workflow, "filename", "office hum.wav", "file_size", 2048))
                .post("/api/v1/workflow/ambient-noise/upload-url").then().statusCode(200)
                .body("storage_backend", equalTo("local"))
                .body("storage_key", org.hamcrest.Matchers.matchesPattern(
                        "ambient_noise/" + account.organizationId() + "/" + workflow + "/[0-9a-f-]{36}_office_hum\\.wav"));
        as(otherKey).body(Map.of("workflow_id", workflow, "filename", "x.wav", "file_size", 10))
                .post("/api/v1/workflow/ambient-noise/upload-url").then().statusCode(404);
        as(key).body(Map.of("workflow_id", workflow, "filename", "x.exe", "mime_type", "application/x-msdownload",
                "file_size", 10)).post("/api/v1/workflow/ambient-noise/upload-url").then().statusCode(400);
    }

    @Test
    void everyCheckAnswersWithAClearMessageAndStoresNothing() throws IOException {
        String good = upload("phone_number,first_name\n+15550000011,Ann\n");
        as(key).body(request(good)).post("/api/v1/campaign/create").then().statusCode(400)
                .body("detail", equalTo("No telephony configuration: configure telephony first"));
        simulator();
        Map<String, Object> badWorkflow = request(good);
        badWorkflow.put("workflow_id", 999999);
        as(key).body(badWorkflow).post("/api/v1/campaign/create").then().statusCode(404)
                .body("detail", equalTo("Workflow not found"));
        as(key).body(request(upload("phone_number,first_name\n+15550000011,Ann\n12,Bob\n+15550000011,Cy\n")))
                .post("/api/v1/campaign/create").then().statusCode(400)
                .body("detail", startsWith("Invalid phone numbers in rows: 3."));
        as(key).body(request(upload("phone_number,first_name\n+15550000011,Ann\n+1 555 000 0011,Bob\n")))
                .post("/api/v1/campaign/create").then().statusCode(400)
                .body("detail", equalTo("Duplicate phone numbers found in rows: 3. Phone numbers in a campaign must be unique."));
        as(key).body(request(upload("phone_number\n+15550000011\n"))).post("/api/v1/campaign/create").then()
                .statusCode(400).body("detail", containsString("missing from the source data: 'first_name'"));
        as(key).body(request(upload("phone_number,first_name\n+15550000011,\n"))).post("/api/v1/campaign/create")
                .then().statusCode(400).body("detail", startsWith("Template variable 'first_name' is empty in rows: 2."));
        as(key).body(request(upload("name\nAnn\n"))).post("/api/v1/campaign/create").then().statusCode(400)
                .body("detail", equalTo("Source must contain a 'phone_number' column"));
        as(key).body(request(upload("phone_number,first_name\n"))).post("/api/v1/campaign/create").then()
                .statusCode(400).body("detail", equalTo("CSV file must have a header row and at least one data row"));
        as(key).body(request("campaigns/" + account.organizationId() + "/missing.csv")).post("/api/v1/campaign/create")
                .then().statusCode(400).body("detail", startsWith("Failed to access CSV file"));
        // an empty object, as a store without size checks (a presigned S3 PUT) lets through: refused by its size
        String empty = "campaigns/" + account.organizationId() + "/empty.csv";
        Path file = Path.of(System.getProperty("java.io.tmpdir"), "voice-agent-test-objects", empty);
        Files.createDirectories(file.getParent());
        Files.write(file, new byte[0]);
        as(key).body(request(empty)).post("/api/v1/campaign/create").then().statusCode(400)
                .body("detail", equalTo("The CSV file must be between 1 byte and 10485760 bytes (it is 0)"));
        as(key).body(request("campaigns/" + (account.organizationId() + 1000) + "/x.csv")).post("/api/v1/campaign/create")
                .then().statusCode(403);
        Map<String, Object> tooMany = request(good);
        tooMany.put("max_concurrency", 11);
        as(key).body(tooMany).post("/api/v1/campaign/create").then().statusCode(400)
                .body("detail", equalTo("max_concurrency (11) cannot exceed organization limit (10)"));
        Map<String, Object> badRange = request(good);
        badRange.put("retry_config", Map.of("max_retries", 11));
        badRange.put("source_type", "google-sheet");
        as(key).body(badRange).post("/api/v1/campaign/create").then().statusCode(422);
        assertThat(campaigns()).isZero();
    }
}
