package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.PackagedInstance;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged application as separate processes on one PostgreSQL. An instance dials part of a
 * campaign and is killed with SIGKILL while its calls are live; two fresh instances then run the
 * same campaign together: the dead instance's attempts are reconciled after their lease, every
 * contact reaches a final state, no contact is dialed twice for one attempt, and the concurrency
 * cap holds across the instances the whole time (sampled from the ledger).
 */
class TwoInstancesDispatchIT {

    private static final int CONTACTS = 60;
    private static final int MAX_CONCURRENCY = 6;
    private static EmbeddedPostgres postgres;
    private static final List<Process> processes = new ArrayList<>();

    @BeforeAll
    static void database() throws Exception {
        postgres = EmbeddedPostgres.builder().setServerConfig("max_connections", "200").start();
    }

    /** Each test's instances end with it, so that the next test's campaign has only its own. */
    @AfterEach
    void stopInstances() throws Exception {
        processes.forEach(Process::destroyForcibly);
        for (Process p : processes) {
            p.waitFor();
        }
        processes.clear();
    }

    @AfterAll
    static void stop() throws Exception {
        postgres.close();
    }

    private static Instance launch(String name) throws Exception {
        PackagedInstance started = PackagedInstance.start("two-instances-" + name, postgres.getPort(),
                Duration.ofSeconds(60), "-Dvoiceagent.dispatch.lease=PT3S", "-Dvoiceagent.dispatch.reconcile-every=1s");
        processes.add(started.process());
        return new Instance(name, started.port(), started.process());
    }

    private record Instance(String name, int port, Process process) {
        RequestSpecification as(String key) {
            return given().port(port).header("X-API-Key", key).contentType(ContentType.JSON);
        }
    }

    private static long query(String sql, Object... args) throws Exception {
        try (Connection c = postgres.getPostgresDatabase().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static String rows(String sql, Object... args) throws Exception {
        StringBuilder out = new StringBuilder();
        try (Connection c = postgres.getPostgresDatabase().getConnection(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.append('\n');
                    for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                        out.append(rs.getString(i)).append(' ');
                    }
                }
            }
        }
        return out.toString();
    }

    private static String signUp(Instance instance) {
        String email = "two-" + UUID.randomUUID() + "@example.com";
        String token = given().port(instance.port()).contentType(ContentType.JSON)
                .body(Map.of("email", email, "password", "correct-horse-battery", "name", "two"))
                .post("/api/v1/auth/signup").then().statusCode(200).extract().path("token");
        return given().port(instance.port()).header("authorization", "Bearer " + token).contentType(ContentType.JSON)
                .body(Map.of("name", "k")).post("/api/v1/user/api-keys").then().statusCode(200).extract().path("api_key");
    }

    /**
     * A campaign of {@code contacts} numbers (the format takes the index) through a simulator whose
     * calls last about three seconds; numbers ending in 7 are busy and retried once after 30 s.
     */
    private static long campaign(Instance first, String key, String numbers, int contacts, int maxConcurrency) {
        long workflow = first.as(key).body(Map.of("name", "Caller", "workflow_definition",
                        WorkflowEndToEndTest.definition("Remind")))
                .post("/api/v1/workflow/create/definition").then().statusCode(200).extract().jsonPath().getLong("id");
        first.as(key).body(Map.of("name", "Laptop", "config", Map.of("provider", "simulator", "ring_delay_ms", 1000,
                        "default_duration_seconds", 3, "rules", List.of(Map.of("suffix", "7", "outcome", "busy")))))
                .post("/api/v1/organizations/telephony-configs").then().statusCode(200);
        StringBuilder csv = new StringBuilder("phone_number,first_name\n");
        for (int i = 0; i < contacts; i++) {
            csv.append(numbers.formatted(i)).append(",Ann\n");
        }
        byte[] bytes = csv.toString().getBytes(StandardCharsets.UTF_8);
        var upload = first.as(key).body(Map.of("file_name", "c.csv", "file_size", bytes.length))
                .post("/api/v1/object-store/presigned-upload-url").then().statusCode(200).extract().jsonPath();
        given().contentType("text/csv").body(bytes).put(upload.getString("upload_url")).then().statusCode(200);
        return first.as(key).body(Map.of("name", "Two", "workflow_id", workflow, "source_type", "csv",
                        "source_id", upload.getString("file_key"), "max_concurrency", maxConcurrency,
                        "retry_config", Map.of("enabled", true, "max_retries", 1, "retry_delay_seconds", 30,
                                "retry_on_busy", true),
                        "circuit_breaker", Map.of("enabled", false)))
                .post("/api/v1/campaign/create").then().statusCode(200).extract().jsonPath().getLong("id");
    }

    /** The prod profile logs one JSON object per line, with the configured keys. */
    private static void assertProductionLogsAreJsonLines(Path log) throws Exception {
        com.fasterxml.jackson.databind.ObjectMapper json = new com.fasterxml.jackson.databind.ObjectMapper();
        List<com.fasterxml.jackson.databind.JsonNode> lines = new ArrayList<>();
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
            if (!line.isBlank()) {
                lines.add(json.readTree(line)); // throws on any line that is not JSON
            }
        }
        assertThat(lines).isNotEmpty().allSatisfy(line -> {
            assertThat(line.isObject()).isTrue();
            assertThat(line.path("timestamp").isTextual() && line.path("level").isTextual()
                    && line.path("loggerName").isTextual() && line.has("message")).as(line.toString()).isTrue();
            assertThat(line.path("service").asText()).isEqualTo("voice-agent");
            assertThat(line.has("processName") || line.has("sequence") || line.has("ndc")).as("excluded keys").isFalse();
        });
        assertThat(lines).anySatisfy(line -> assertThat(line.path("message").asText()).contains("started in"));
        assertThat(lines).anySatisfy(line -> assertThat(line.path("message").asText()).startsWith("drain:"));
    }

    @Test
    void aDrainingInstanceTurnsNotReadyStopsDialingAndServesItsLiveCallsBeforeExiting() throws Exception {
        Instance draining = launch("draining");
        String key = signUp(draining);
        long campaign = campaign(draining, key, "+1555080%04d", 20, 2);
        draining.as(key).post("/api/v1/campaign/" + campaign + "/start").then().statusCode(200);
        String active = "SELECT count(*) FROM calls WHERE campaign_id = ? AND status IN ('initiated', 'ringing', 'in-progress')";
        Instant deadline = Instant.now().plusSeconds(60);
        while (query(active, campaign) < 2 && Instant.now().isBefore(deadline)) {
            Thread.sleep(50);
        }
        assertThat(query(active, campaign)).isEqualTo(2);
        Instant sigterm = Instant.now();
        draining.process().destroy(); // SIGTERM
        boolean sawNotReady = false;
        while (draining.process().isAlive() && !sawNotReady) {
            try {
                sawNotReady = given().port(draining.port()).get("/q/health/ready").statusCode() == 503;
            } catch (Exception closing) {
                break;
            }
            Thread.sleep(50);
        }
        assertThat(sawNotReady).as("not ready while draining").isTrue();
        assertThat(draining.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertProductionLogsAreJsonLines(Path.of("target", "two-instances-draining.log"));
        // its live calls ended while it drained (their reports reached it), and it dialed nothing new
        assertThat(query(active, campaign)).isZero();
        assertThat(query("SELECT count(*) FROM calls WHERE campaign_id = ? AND status = 'completed'", campaign))
                .isGreaterThanOrEqualTo(2);
        assertThat(query("SELECT count(*) FROM calls WHERE campaign_id = ? AND started_at > ?", campaign,
                Timestamp.from(sigterm.plusSeconds(1)))).isZero();
        assertThat(query("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ? AND state = 'pending'", campaign))
                .isGreaterThan(0);
        // another replica takes the remaining contacts
        Instance next = launch("after-drain");
        deadline = Instant.now().plusSeconds(120);
        while (query("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ? AND state = 'done'", campaign) < 20
                && Instant.now().isBefore(deadline)) {
            Thread.sleep(250);
        }
        assertThat(query("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ? AND state = 'done'", campaign))
                .isEqualTo(20);
        assertThat(next.process().isAlive()).isTrue();
    }

    @Test
    void aKilledInstancesCallsAreReconciledAndTwoInstancesFinishTheCampaignExactly() throws Exception {
        Instance first = launch("first");
        String key = signUp(first);
        long campaign = campaign(first, key, "+1555040%04d", CONTACTS, MAX_CONCURRENCY);

        String active = "SELECT count(*) FROM calls WHERE campaign_id = ? AND status IN ('initiated', 'ringing', 'in-progress')";
        AtomicLong peak = new AtomicLong();
        AtomicBoolean sampling = new AtomicBoolean(true);
        Thread sampler = Thread.ofVirtual().start(() -> {
            while (sampling.get()) {
                try {
                    peak.accumulateAndGet(query(active, campaign), Math::max);
                    Thread.sleep(25);
                } catch (Exception e) {
                    return;
                }
            }
        });
        first.as(key).post("/api/v1/campaign/" + campaign + "/start").then().statusCode(200);
        Instant deadline = Instant.now().plusSeconds(60);
        while (query(active, campaign) < 4 && Instant.now().isBefore(deadline)) {
            Thread.sleep(50);
        }
        first.process().destroyForcibly(); // SIGKILL: its pending simulator reports die with it
        first.process().waitFor();
        long orphaned = query(active, campaign);
        assertThat(orphaned).as("calls live when the instance died").isGreaterThanOrEqualTo(4);

        Instance second = launch("second");
        Instance third = launch("third");
        deadline = Instant.now().plusSeconds(150);
        String state = "";
        while (Instant.now().isBefore(deadline)) {
            state = second.as(key).get("/api/v1/campaign/" + campaign).then().statusCode(200).extract().path("state");
            if (state.equals("completed")) {
                break;
            }
            Thread.sleep(250);
        }
        sampling.set(false);
        sampler.join();
        assertThat(state).isEqualTo("completed");
        assertThat(peak.get()).as("peak active calls over all instances").isBetween(2L, (long) MAX_CONCURRENCY);
        assertThat(query("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ? AND state = 'done'", campaign))
                .isEqualTo(CONTACTS);
        assertThat(query(active, campaign)).isZero();
        assertThat(query("SELECT count(*) FROM call_callbacks WHERE dedup_key LIKE 'reconcile:%'"))
                .as("the dead instance's calls were settled through the provider's status").isGreaterThanOrEqualTo(orphaned);
        // attempt numbers per contact are exactly 1..n: nothing dialed twice, nothing skipped
        assertThat(query("SELECT count(*) FROM (SELECT contact_id FROM calls WHERE campaign_id = ? GROUP BY contact_id"
                + " HAVING count(*) <> max(attempt_number) OR min(attempt_number) <> 1) bad", campaign)).isZero();
        assertThat(query("SELECT count(*) FROM calls WHERE campaign_id = ? AND attempt_number = 2", campaign))
                .as("the six busy contacts retried once; all calls: %s", rows("SELECT to_number, attempt_number, status,"
                        + " failure_reason, provider_call_id IS NOT NULL FROM calls WHERE campaign_id = ? ORDER BY to_number,"
                        + " attempt_number", campaign))
                .isEqualTo(6);
        assertThat(query("SELECT processed_rows FROM campaigns WHERE id = ?", campaign)).isEqualTo(CONTACTS);
        // killed between committing an attempt and recording the provider's call id, a call is closed as an
        // error (the provider cannot be asked about it): those contacts end without success, like the busy ones
        long closedAsErrors = query("SELECT count(*) FROM calls WHERE campaign_id = ? AND status = 'error'", campaign);
        assertThat(query("SELECT failed_rows FROM campaigns WHERE id = ?", campaign)).isEqualTo(6 + closedAsErrors);
        assertThat(closedAsErrors).isLessThanOrEqualTo(orphaned);
        assertThat(second.process().isAlive() && third.process().isAlive()).isTrue();
    }
}
