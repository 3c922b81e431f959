package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.deploy.support.PackagedInstance;
import io.restassured.http.ContentType;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The two ways of migrating (README, Operations): the migration Job's mode
 * ({@code voiceagent.migrate-only}) migrates an empty database and exits 0; a replica started as the
 * Deployment starts them ({@code quarkus.flyway.migrate-at-start=false}, no JDBC URL) then serves without
 * ever creating Flyway; a Job told not to migrate at start fails; and a migrate-only run against a database
 * whose history it cannot apply fails with a non-zero status.
 */
class MigrationJobIT {

    private static EmbeddedPostgres postgres;

    @BeforeAll
    static void database() throws Exception {
        postgres = EmbeddedPostgres.builder().start();
    }

    @AfterAll
    static void stop() throws Exception {
        postgres.close();
    }

    @Test
    void theJobMigratesAndExitsThenAReplicaStartsWithoutFlyway() throws Exception {
        PackagedInstance job = PackagedInstance.launch("migrate-job", postgres.getPort(),
                "-Dvoiceagent.migrate-only=true", "-Dquarkus.scheduler.enabled=false");
        assertThat(job.process().waitFor(90, TimeUnit.SECONDS)).as("the job exits; see %s", job.log()).isTrue();
        assertThat(job.process().exitValue()).as("exit status; see %s", job.log()).isZero();
        assertThat(job.logText()).contains("migrate-only: the schema is migrated; exiting");
        long applied = query("SELECT count(*) FROM flyway_schema_history WHERE success");
        assertThat(applied).as("migrations applied by the job").isGreaterThan(20);

        Path classes = Path.of("target", "migrate-replica-classes.log");
        PackagedInstance replica = PackagedInstance.start("migrate-replica", postgres.getPort(), Duration.ofSeconds(60),
                "-Dquarkus.flyway.migrate-at-start=false", "-Dquarkus.datasource.jdbc.url=", // as deploy/k8s/deployment.yaml
                "-Xlog:class+load=info:file=" + classes);
        try {
            given().port(replica.port()).contentType(ContentType.JSON)
                    .body(Map.of("email", "job@example.com", "password", "correct-horse-battery"))
                    .post("/api/v1/auth/signup").then().statusCode(200);
            assertThat(query("SELECT count(*) FROM flyway_schema_history")).as("the replica ran no migration")
                    .isEqualTo(query("SELECT count(*) FROM flyway_schema_history WHERE success"));
            assertThat(query("SELECT count(*) FROM flyway_schema_history")).isEqualTo(applied);
            assertThat(Files.readString(classes)).as("the replica loads classes (the log is written)")
                    .contains("dev.voiceagent.deploy.MigrateOnly ")
                    // Flyway's configuration is the first thing made when Flyway is (a replica with a JDBC URL does)
                    .as("the replica never creates Flyway")
                    .doesNotContain("org.flywaydb.core.api.configuration.ClassicConfiguration ");
        } finally {
            replica.process().destroy();
            replica.process().waitFor(30, TimeUnit.SECONDS);
        }

        // a Job told not to migrate at start would report a migration it never ran: it fails instead
        PackagedInstance misconfigured = PackagedInstance.launch("migrate-job-misconfigured", postgres.getPort(),
                "-Dvoiceagent.migrate-only=true", "-Dquarkus.flyway.migrate-at-start=false",
                "-Dquarkus.scheduler.enabled=false");
        assertThat(misconfigured.process().waitFor(90, TimeUnit.SECONDS)).as("the job exits; see %s",
                misconfigured.log()).isTrue();
        assertThat(misconfigured.process().exitValue()).as("exit status; see %s", misconfigured.log()).isEqualTo(1);
        assertThat(misconfigured.logText()).contains("migrate-only: nothing was migrated");

        // a history this build does not know (a newer release's migration, checksum or version): the job fails
        exec("UPDATE flyway_schema_history SET checksum = checksum + 1 WHERE version = '1'");
        PackagedInstance failing = PackagedInstance.launch("migrate-job-failing", postgres.getPort(),
                "-Dvoiceagent.migrate-only=true", "-Dquarkus.scheduler.enabled=false");
        assertThat(failing.process().waitFor(90, TimeUnit.SECONDS)).as("the job exits; see %s", failing.log()).isTrue();
        assertThat(failing.process().exitValue()).as("a failed validation fails the job; see %s", failing.log())
                .isNotZero();
    }

    private static long query(String sql) throws Exception {
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static void exec(String sql) throws Exception {
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
