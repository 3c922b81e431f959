package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.PackagedInstance;
import io.restassured.http.ContentType;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A replica that starts while another connection holds a lock on instance_secrets for several
 * scheduler ticks, with a single event loop (the case that deadlocked: a tick waiting on the event
 * loop for a start-up bean whose creation waited for a database reply due on that same loop). It
 * must wait for the lock, then start cleanly and serve, with no blocked event loop in its log.
 */
class StartupUnderLockIT {

    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void database() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
        // a first start migrates the schema and creates the instance's keys
        PackagedInstance first = PackagedInstance.start("startup-lock-first", postgres.getPort(), Duration.ofSeconds(60));
        first.process().destroy();
        assertThat(first.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    @AfterAll
    static void stop() throws Exception {
        postgres.close();
    }

    @Test
    void aReplicaStartingWhileTheInstanceSecretsAreLockedWaitsThenStartsCleanly() throws Exception {
        PackagedInstance instance;
        try (Connection lock = postgres.getPostgresDatabase().getConnection()) {
            lock.setAutoCommit(false);
            try (Statement s = lock.createStatement()) {
                s.execute("LOCK TABLE instance_secrets IN ACCESS EXCLUSIVE MODE");
            }
            instance = PackagedInstance.launch("startup-lock-second", postgres.getPort(),
                    "-Dquarkus.vertx.event-loops-pool-size=1", "-Dvoiceagent.dispatch.reconcile-every=1s");
            Thread.sleep(6_000); // several ticks of every kind (1 s each)
            assertThat(instance.process().isAlive()).as("waiting for the lock, not dead").isTrue();
            lock.rollback();
        }
        try {
            assertThat(instance.awaitHealthy(Duration.ofSeconds(60))).as("started once the lock was released; see %s",
                    instance.log()).isTrue();
            // the keys resolved at start-up work: a signed-in session, an API key, a simulated call and its callbacks
            String token = given().port(instance.port()).contentType(ContentType.JSON)
                    .body(Map.of("email", "lock-" + UUID.randomUUID() + "@example.com", "password", "correct-horse-battery"))
                    .post("/api/v1/auth/signup").then().statusCode(200).extract().path("token");
            String key = given().port(instance.port()).header("authorization", "Bearer " + token)
                    .contentType(ContentType.JSON).body(Map.of("name", "k")).post("/api/v1/user/api-keys")
                    .then().statusCode(200).extract().path("api_key");
            long workflow = instance.as(key).body(Map.of("name", "Caller", "workflow_definition",
                    WorkflowEndToEndTest.definition("Hello"))).post("/api/v1/workflow/create/definition")
                    .then().statusCode(200).extract().jsonPath().getLong("id");
            instance.as(key).body(Map.of("name", "Sim", "config", Map.of("provider", "simulator", "ring_delay_ms", 100,
                    "default_duration_seconds", 1))).post("/api/v1/organizations/telephony-configs").then().statusCode(200);
            long run = instance.as(key).body(Map.of("workflow_id", workflow, "phone_number", "+15550001234"))
                    .post("/api/v1/telephony/initiate-call").then().statusCode(200).extract().jsonPath()
                    .getLong("workflow_run_id");
            Instant deadline = Instant.now().plusSeconds(30);
            boolean completed = false;
            while (!completed && Instant.now().isBefore(deadline)) {
                completed = instance.as(key).get("/api/v1/workflow/" + workflow + "/runs/" + run).then().statusCode(200)
                        .extract().jsonPath().getBoolean("is_completed");
                Thread.sleep(100);
            }
            assertThat(completed).as("the simulator's signed callbacks completed the call").isTrue();
            assertThat(instance.process().isAlive()).isTrue();
            String log = instance.logText();
            assertThat(log).doesNotContain("has been blocked").doesNotContain("TimeoutException")
                    .doesNotContain("\"level\":\"ERROR\"");
        } finally {
            instance.process().destroy();
            instance.process().waitFor(30, TimeUnit.SECONDS);
        }
    }
}
