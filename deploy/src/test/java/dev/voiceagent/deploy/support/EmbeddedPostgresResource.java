package dev.voiceagent.deploy.support;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * A real PostgreSQL for the tests: a fresh embedded server (binaries from Maven Central) per test
 * JVM, or the server named by TEST_DB_URL (jdbc:postgresql://host:port/db, with TEST_DB_USER and
 * TEST_DB_PASSWORD). pg_stat_statements is loaded so that tests can count the statements a request runs.
 */
public class EmbeddedPostgresResource implements QuarkusTestResourceLifecycleManager {

    protected EmbeddedPostgres postgres;

    @Override
    public Map<String, String> start() {
        String external = System.getenv("TEST_DB_URL");
        if (external != null && !external.isBlank()) {
            return config(external, System.getenv().getOrDefault("TEST_DB_USER", "postgres"),
                    System.getenv().getOrDefault("TEST_DB_PASSWORD", "postgres"));
        }
        try {
            postgres = EmbeddedPostgres.builder()
                    .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                    .setServerConfig("max_connections", "100")
                    .start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL", e);
        }
        return config("jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres", "postgres", "postgres");
    }

    static Map<String, String> config(String jdbcUrl, String user, String password) {
        return Map.of(
                "quarkus.datasource.jdbc.url", jdbcUrl,
                "quarkus.datasource.reactive.url", jdbcUrl.substring("jdbc:".length()),
                "quarkus.datasource.username", user,
                "quarkus.datasource.password", password);
    }

    @Override
    public void stop() {
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException | RuntimeException ignored) {
                // the test JVM is ending (or a test stopped the server already)
            }
        }
    }
}
