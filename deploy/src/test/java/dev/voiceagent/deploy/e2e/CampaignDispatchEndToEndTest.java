package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.EmbeddedPostgresResource;
import dev.voiceagent.deploy.support.Sql;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The dispatcher end to end with the simulator: real ticks, real callbacks, PostgreSQL as the only
 * coordination. The simulator decides outcomes by the number's last digit.
 */
@QuarkusTest
@WithTestResource(EmbeddedPostgresResource.class)
class CampaignDispatchEndToEndTest {

    @Inject
    AgroalDataSource dataSource;

    private String key;
    private long workflow;
    private Sql sql;

    private RequestSpecification as() {
        return given().header("X-API-Key", key).contentType(ContentType.JSON);
    }

    @BeforeEach
    void organization() {
        sql = new Sql(dataSource);
        key = Api.createKey(Api.signUp("dispatch"), "k");
        workflow = as().body(Map.of("name", "Caller", "workflow_definition", WorkflowEndToEndTest.definition("Remind")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    /** Last digit 1 busy, 2 no-answer, 3 voicemail, 4 failed; anything else completes. */
    private void simulator(String defaultOutcome) {
        as().body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator", "ring_delay_ms", 30,
                        "default_outcome", defaultOutcome, "default_duration_seconds", 1,
                        "rules", List.of(Map.of("suffix", "1", "outcome", "busy"),
                                Map.of("suffix", "2", "outcome", "no-answer"),
                                Map.of("suffix", "3", "outcome", "voicemail"),
                                Map.of("suffix", "4", "outcome", "failed")))))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
    }

    private String upload(String csv) {
        byte[] bytes = csv.getBytes(StandardCharsets.UTF_8);
        var presigned = as().body(Map.of("file_name", "contacts.csv", "file_size", bytes.length))
                .post("/api/v1/object-store/presigned-upload-url").then().statusCode(200).extract().jsonPath();
        given().contentType("text/csv").body(bytes).put(presigned.getString("upload_url")).then().statusCode(200);
        return presigned.getString("file_key");
    }

    private Map<String, Object> body(String source, Map<String, Object> settings) {
        Map<String, Object> body = new HashMap<>(settings);
        body.put("name", "Dispatch");
        body.put("workflow_id", workflow);
        body.put("source_type", "csv");
        body.put("source_id", source);
        return body;
    }

    private long create(String csv, Map<String, Object> settings) {
        Map<String, Object> body = body(upload(csv), settings);
        return as().body(body).post("/api/v1/campaign/create").then().log().ifValidationFails().statusCode(200)
                .extract().jsonPath().getLong("id");
    }

    private JsonPath awaitState(long id, String state, Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        JsonPath campaign = null;
        while (Instant.now().isBefore(deadline)) {
            campaign = as().get("/api/v1/campaign/" + id).then().statusCode(200).extract().jsonPath();
            if (state.equals(campaign.getString("state"))) {
                return campaign;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("campaign " + id + " never reached " + state + ": " + campaign.prettify());
    }

    /** A sample's value in Prometheus text ({@code name} with its labels, if any, as exposed). */
    private static double metric(String text, String name) {
        return text.lines().filter(l -> l.startsWith(name + " ") || (l.startsWith(name + "{") && !name.contains("{")))
                .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1))).sum();
    }

    private long activeCalls(long campaign) {
        return sql.queryLong("SELECT count(*) FROM calls WHERE campaign_id = ? AND status IN ('initiated', 'ringing',"
                + " 'in-progress')", campaign);
    }

    @Test
    void twoHundredContactsEndWithExactCountsRetriesAfterTheirDelayAndNeverAboveMaxConcurrency() throws Exception {
        simulator("completed");
        StringBuilder csv = new StringBuilder("phone_number,first_name\n");
        for (int i = 0; i < 200; i++) {
            csv.append("+1555010%04d,Ann\n".formatted(i));
        }
        long id = create(csv.toString(), Map.of("max_concurrency", 5,
                "retry_config", Map.of("enabled", true, "max_retries", 1, "retry_delay_seconds", 30,
                        "retry_on_busy", true, "retry_on_no_answer", true, "retry_on_voicemail", true),
                "circuit_breaker", Map.of("enabled", false)));
        AtomicLong peak = new AtomicLong();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = Thread.ofVirtual().start(() -> {
            while (sampling.get()) {
                peak.accumulateAndGet(activeCalls(id), Math::max);
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        as().post("/api/v1/campaign/" + id + "/start").then().statusCode(200);
        JsonPath done = awaitState(id, "completed", Duration.ofSeconds(150));
        sampling.set(false);
        sampler.join();

        assertThat(peak.get()).as("peak active calls").isBetween(2L, 5L);
        // 120 completed at once; 20 failed (not retried); 20 each busy / no-answer / voicemail, tried twice
        assertThat(done.getInt("total_rows")).isEqualTo(200);
        assertThat(done.getInt("processed_rows")).isEqualTo(200);
        assertThat(done.getInt("failed_rows")).isEqualTo(80);
        assertThat(done.getInt("executed_count")).isEqualTo(260);
        assertThat(done.getInt("total_queued_count")).isEqualTo(260);
        assertThat(done.getList("logs.event")).containsSubsequence("started", "contacts_loaded", "completed");
        assertThat(sql.queryLong("SELECT count(*) FROM (SELECT contact_id FROM calls WHERE campaign_id = ?"
                + " GROUP BY contact_id HAVING count(*) = 2 AND bool_and(to_number ~ '[123]$')) t", id)).isEqualTo(60);
        assertThat(sql.queryLong("SELECT count(*) FROM calls WHERE campaign_id = ? AND attempt_number = 1", id))
                .isEqualTo(200);
        // every retry was placed no sooner than retry_delay_seconds after the first attempt ended
        assertThat(sql.queryLong("SELECT count(*) FROM calls r JOIN calls f ON f.contact_id = r.contact_id"
                + " AND f.attempt_number = 1 WHERE r.campaign_id = ? AND r.attempt_number = 2"
                + " AND r.started_at >= f.ended_at + interval '30 seconds'", id)).isEqualTo(60);
        assertThat(sql.queryLong("SELECT count(*) FROM workflow_runs WHERE campaign_id = ?"
                + " AND gathered_context->'call_tags' @> '[\"retry\"]'::jsonb", id)).isEqualTo(60);
        assertThat(sql.queryLong("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ? AND state = 'done'", id))
                .isEqualTo(200);
        // failed_calls as the reference counts it: last call failed, busy or unanswered (voicemail is not)
        as().get("/api/v1/campaign/" + id + "/progress").then().statusCode(200)
                .body("processed_rows", equalTo(200)).body("failed_calls", equalTo(60))
                .body("progress_percentage", equalTo(100.0f))
                .body("dispatch.outcomes", equalTo(Map.of("completed", 120, "busy", 20, "no-answer", 20,
                        "voicemail", 20, "failed", 20)))
                .body("dispatch.pending", equalTo(0)).body("dispatch.waiting_retry", equalTo(0))
                .body("dispatch.active_calls", equalTo(0)).body("dispatch.window_open", equalTo(true))
                .body("dispatch.circuit_breaker.enabled", equalTo(false));

        // the engine's meters after a dispatch (Prometheus text)
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        assertThat(metric(metrics, "voiceagent_dials_started_total")).isGreaterThanOrEqualTo(260);
        assertThat(metric(metrics, "voiceagent_calls_outcomes_total{status=\"busy\"}")).isGreaterThanOrEqualTo(40);
        assertThat(metric(metrics, "voiceagent_import_rows_total")).isGreaterThanOrEqualTo(200);
        assertThat(metric(metrics, "voiceagent_dispatch_tick_seconds_count")).isPositive();
        assertThat(metrics).contains("http_server_requests_seconds_count").contains("voiceagent_calls_active");

        // a redial takes exactly the unreached contacts (busy, no-answer, voicemail: 60), not the failed ones
        as().body(Map.of()).post("/api/v1/campaign/" + id + "/redial").then().statusCode(200)
                .body("total_rows", equalTo(60));
    }

    @Test
    void theBreakerPausesOnFailuresAndResumeStartsAFreshWindow() throws Exception {
        simulator("failed");
        StringBuilder csv = new StringBuilder("phone_number,first_name\n");
        for (int i = 0; i < 40; i++) {
            csv.append("+1555020%04d,Bob\n".formatted(i * 10 + 5)); // no rule matches: the default, failed
        }
        long id = create(csv.toString(), Map.of("max_concurrency", 2, "circuit_breaker",
                Map.of("enabled", true, "failure_threshold", 0.5, "window_seconds", 60, "min_calls_in_window", 5)));
        as().post("/api/v1/campaign/" + id + "/start").then().statusCode(200);
        JsonPath paused = awaitState(id, "paused", Duration.ofSeconds(30));
        Map<String, Object> trip = paused.getMap("logs.find { it.event == 'circuit_breaker_tripped' }");
        assertThat(trip).containsEntry("level", "warning");
        @SuppressWarnings("unchecked")
        Map<String, Object> details = (Map<String, Object>) trip.get("details");
        assertThat(((Number) details.get("calls")).longValue()).isGreaterThanOrEqualTo(5);
        assertThat(details.get("failure_rate")).isEqualTo(1.0f);
        assertThat(details.get("threshold")).isEqualTo(0.5f);
        assertThat((List<?>) details.get("recent_failures")).isNotEmpty();

        Thread.sleep(500); // calls in flight when it tripped end
        as().get("/api/v1/campaign/" + id + "/progress").then().statusCode(200)
                .body("dispatch.circuit_breaker.tripped", equalTo(true))
                .body("dispatch.circuit_breaker.failure_rate", equalTo(1.0f))
                .body("dispatch.circuit_breaker.failure_threshold", equalTo(0.5f))
                .body("dispatch.active_calls", equalTo(0));
        long dialed = sql.queryLong("SELECT count(*) FROM calls WHERE campaign_id = ?", id);
        assertThat(dialed).isBetween(5L, 10L);
        Thread.sleep(1000);
        assertThat(sql.queryLong("SELECT count(*) FROM calls WHERE campaign_id = ?", id)).as("nothing dialed while paused")
                .isEqualTo(dialed);

        // resume: the failures before it no longer count, so it dials a fresh window before tripping again
        as().post("/api/v1/campaign/" + id + "/resume").then().statusCode(200);
        awaitState(id, "paused", Duration.ofSeconds(30));
        assertThat(sql.queryLong("SELECT count(*) FROM calls WHERE campaign_id = ?", id)).isGreaterThanOrEqualTo(dialed + 5);
        assertThat(as().get("/api/v1/campaign/" + id).then().extract().jsonPath().getList("logs.event"))
                .containsSubsequence("circuit_breaker_tripped", "resumed", "circuit_breaker_tripped");
    }

    @Test
    void aContactOutsideItsOwnTimezonesWindowWaitsWhileTheOthersAreCalled() throws Exception {
        simulator("completed");
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        int hour = now.getHour();
        String start = "%02d:00".formatted(Math.max(0, hour - 1));
        String end = hour >= 22 ? "23:59" : "%02d:00".formatted(hour + 2);
        // UTC+12 is twelve hours away from the slot around the current UTC hour, whatever the day
        long id = create("phone_number,first_name,timezone,greeting_override_type,greeting_override_text\n"
                + "+15550300005,Cy,,text,Hello Cy\n+15550300015,Di,Etc/GMT-12,,\n", Map.of(
                "schedule_config", Map.of("enabled", true, "timezone", "UTC", "slots", List.of(Map.of(
                        "day_of_week", now.getDayOfWeek().getValue() - 1, "start_time", start, "end_time", end)))));
        as().post("/api/v1/campaign/" + id + "/start").then().statusCode(200);
        Instant deadline = Instant.now().plusSeconds(20);
        while (Instant.now().isBefore(deadline) && sql.queryLong("SELECT count(*) FROM campaign_contacts"
                + " WHERE campaign_id = ? AND state = 'done'", id) < 1) {
            Thread.sleep(100);
        }
        Thread.sleep(500);
        assertThat(sql.queryLong("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ? AND state = 'done'"
                + " AND phone_number = '+15550300005'", id)).isEqualTo(1);
        assertThat(sql.queryLong("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ? AND state = 'pending'"
                + " AND phone_number = '+15550300015' AND attempts = 0 AND next_attempt_at > now()", id)).isEqualTo(1);
        assertThat(sql.queryLong("SELECT count(*) FROM calls WHERE campaign_id = ? AND to_number = '+15550300015'", id))
                .isZero();
        as().get("/api/v1/campaign/" + id).then().statusCode(200).body("state", equalTo("running"));
        // the run carries the row's variables as the reference builds them
        assertThat(sql.queryLong("SELECT count(*) FROM workflow_runs WHERE campaign_id = ?"
                + " AND initial_context->'greeting_override'->>'text' = 'Hello Cy'"
                + " AND initial_context->>'source_uuid' ~ '^csv_[0-9a-f]{8}_row_1$'"
                + " AND NOT initial_context ?? 'greeting_override_type' AND initial_context->>'first_name' = 'Cy'", id))
                .isEqualTo(1);
    }

    @Test
    void anIdempotencyKeyReplaysTheFirstResponseAndRefusesAnotherRequest() throws Exception {
        simulator("completed");
        String source = upload("phone_number,first_name\n+15550500005,Ann\n");
        Map<String, Object> body = body(source, Map.of("schedule_config", CreateCampaignEndToEndTest.closedWindow()));
        JsonPath first = as().header("Idempotency-Key", "create-1").body(body).post("/api/v1/campaign/create")
                .then().statusCode(200).extract().jsonPath();
        JsonPath again = as().header("Idempotency-Key", "create-1").body(body).post("/api/v1/campaign/create")
                .then().statusCode(200).extract().jsonPath();
        assertThat(again.getLong("id")).isEqualTo(first.getLong("id"));
        assertThat(again.getMap("")).isEqualTo(first.getMap(""));
        assertThat(sql.queryLong("SELECT count(*) FROM campaigns WHERE source_id = ?", source)).isEqualTo(1);

        Map<String, Object> other = new HashMap<>(body);
        other.put("name", "Another");
        as().header("Idempotency-Key", "create-1").body(other).post("/api/v1/campaign/create").then().statusCode(422)
                .body("detail[0].loc", equalTo(List.of("header", "Idempotency-Key")))
                .body("detail[0].type", equalTo("idempotency_key_reused"));
        assertThat(sql.queryLong("SELECT count(*) FROM campaigns WHERE source_id = ?", source)).isEqualTo(1);

        // start replays too: the second start is the first one's answer, not "must be in 'created' state"
        long id = first.getLong("id");
        as().header("Idempotency-Key", "start-1").post("/api/v1/campaign/" + id + "/start").then().statusCode(200);
        as().header("Idempotency-Key", "start-1").post("/api/v1/campaign/" + id + "/start").then().statusCode(200)
                .body("state", equalTo("syncing"));
        as().post("/api/v1/campaign/" + id + "/start").then().statusCode(400);
        // a key held by a request still running is a conflict
        long org = sql.queryLong("SELECT organization_id FROM campaigns WHERE id = ?", id);
        String emptyBody = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"; // SHA-256 of nothing
        sql.update("INSERT INTO idempotency_keys (organization_id, key, fingerprint, created_at) VALUES (?, 'busy', ?, now())",
                org, "resume:" + id + ":" + emptyBody);
        as().header("Idempotency-Key", "busy").post("/api/v1/campaign/" + id + "/resume").then().statusCode(409)
                .body("detail", equalTo("A request with this Idempotency-Key is still in progress"));
        // a failed request stores nothing: the same key runs again once the cause is gone
        as().header("Idempotency-Key", "resume-1").post("/api/v1/campaign/" + id + "/resume").then().statusCode(400);
        assertThat(sql.queryLong("SELECT count(*) FROM idempotency_keys WHERE key = 'resume-1'")).isZero();
    }

    @Test
    void attemptsWhoseLeaseExpiredAreSettledThroughTheProviderOrClosedAsErrors() throws Exception {
        simulator("completed");
        long id = create("phone_number,first_name\n+15550600005,Ann\n+15550600015,Bob\n+15550600025,Cy\n",
                Map.of("schedule_config", CreateCampaignEndToEndTest.closedWindow(), "retry_config",
                        Map.of("enabled", true, "max_retries", 1, "retry_delay_seconds", 60, "retry_on_busy", true)));
        as().post("/api/v1/campaign/" + id + "/start").then().statusCode(200);
        awaitState(id, "running", Duration.ofSeconds(10));
        // as a replica that died leaves them: dialing contacts whose attempts' leases ran out
        long definition = sql.queryLong("SELECT id FROM workflow_definitions WHERE workflow_id = ? AND status = 'published'",
                workflow);
        long org = sql.queryLong("SELECT organization_id FROM campaigns WHERE id = ?", id);
        String endedBusy = "SIM-dead~" + (System.currentTimeMillis() - 1000) + "~busy";
        String[][] orphans = {{"+15550600005", null}, {"+15550600015", endedBusy}};
        for (String[] orphan : orphans) {
            long contact = sql.queryLong("SELECT id FROM campaign_contacts WHERE campaign_id = ? AND phone_number = ?",
                    id, orphan[0]);
            long run = sql.insertReturningId("INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name,"
                    + " mode, campaign_id) VALUES (?, ?, ?, 'orphan', 'simulator', ?)", org, workflow, definition, id);
            sql.update("UPDATE campaign_contacts SET state = 'dialing', attempts = 1 WHERE id = ?", contact);
            sql.update("INSERT INTO calls (organization_id, workflow_run_id, telephony_configuration_id, provider, status,"
                    + " to_number, started_at, campaign_id, contact_id, attempt_number, provider_call_id, lease_expires_at)"
                    + " SELECT ?, ?, telephony_configuration_id, 'simulator', 'ringing', ?, now() - interval '1 minute', ?, ?, 1,"
                    + " ?, now() - interval '1 second' FROM campaigns WHERE id = ?", org, run, orphan[0], id, contact,
                    orphan[1], id);
        }
        Instant deadline = Instant.now().plusSeconds(15);
        while (Instant.now().isBefore(deadline) && sql.queryLong("SELECT count(*) FROM calls WHERE campaign_id = ?"
                + " AND status IN ('initiated', 'ringing', 'in-progress')", id) > 0) {
            Thread.sleep(100);
        }
        Thread.sleep(1500); // a few more ticks: nothing may change after the settlement
        assertThat(sql.queryLong("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ? AND phone_number ="
                + " '+15550600005' AND state = 'done' AND last_outcome = 'error' AND attempts = 1", id))
                .as("never reached the provider: closed as an error, not retried").isEqualTo(1);
        assertThat(sql.queryLong("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ? AND phone_number ="
                + " '+15550600015' AND state = 'waiting_retry' AND last_outcome = 'busy'"
                + " AND next_attempt_at > now() + interval '30 seconds'", id))
                .as("the provider said busy: retried after the delay").isEqualTo(1);
        assertThat(sql.queryLong("SELECT count(*) FROM calls WHERE campaign_id = ?", id)).isEqualTo(2);
        assertThat(sql.queryLong("SELECT failed_rows FROM campaigns WHERE id = ?", id)).isEqualTo(1);
        assertThat(sql.queryLong("SELECT count(*) FROM call_callbacks WHERE dedup_key LIKE 'reconcile:%'"
                + " AND call_id IN (SELECT id FROM calls WHERE campaign_id = ?)", id)).isEqualTo(2);
    }
}
