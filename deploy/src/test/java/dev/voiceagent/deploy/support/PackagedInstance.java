package dev.voiceagent.deploy.support;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The packaged application (target/quarkus-app/quarkus-run.jar, prod profile) started as its own
 * process against a given PostgreSQL, on a free port, with its console in target/&lt;log&gt;.log.
 */
public record PackagedInstance(String name, int port, Process process, Path log) {

    /** Starts an instance and waits until /api/v1/health answers 200 (or the process exits, or the timeout). */
    public static PackagedInstance start(String name, int postgresPort, Duration timeout, String... extraArguments)
            throws IOException, InterruptedException {
        PackagedInstance instance = launch(name, postgresPort, extraArguments);
        if (!instance.awaitHealthy(timeout)) {
            instance.process().destroyForcibly();
            throw new IllegalStateException(name + (instance.process().isAlive() ? " did not start" : " exited")
                    + "; see " + instance.log());
        }
        return instance;
    }

    /** Starts an instance without waiting for it. */
    public static PackagedInstance launch(String name, int postgresPort, String... extraArguments) throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String jdbc = "jdbc:postgresql://localhost:" + postgresPort + "/postgres";
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dquarkus.http.port=" + port,
                "-Dquarkus.datasource.jdbc.url=" + jdbc,
                "-Dquarkus.datasource.reactive.url=" + jdbc.substring("jdbc:".length()),
                "-Dquarkus.datasource.username=postgres", "-Dquarkus.datasource.password=postgres",
                "-Dvoiceagent.callbacks.base-url=http://localhost:" + port,
                // these tests drive one key hard and dial at any hour; rate limits and calling hours have their tests
                "-Dvoiceagent.rate-limit.per-second=100000", "-Dvoiceagent.rate-limit.burst=100000",
                "-Dvoiceagent.calling-hours.default=00:00-24:00"));
        command.addAll(List.of(extraArguments));
        command.addAll(List.of("-jar", Path.of("target", "quarkus-app", "quarkus-run.jar").toString()));
        File log = Path.of("target", name + ".log").toFile();
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log).start();
        return new PackagedInstance(name, port, process, log.toPath());
    }

    /** True once /api/v1/health answers 200; false if the process exits or the time runs out first. */
    public boolean awaitHealthy(Duration timeout) throws InterruptedException {
        Instant deadline = Instant.now().plus(timeout);
        while (Instant.now().isBefore(deadline) && process.isAlive()) {
            try {
                if (given().port(port).get("/api/v1/health").statusCode() == 200) {
                    return true;
                }
            } catch (Exception notYet) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        return false;
    }

    public RequestSpecification as(String apiKey) {
        return given().port(port).header("X-API-Key", apiKey).contentType(ContentType.JSON);
    }

    public String logText() throws IOException {
        return Files.readString(log);
    }
}
