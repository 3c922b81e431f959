package dev.voiceagent.deploy.bench;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Benchmark (not a test): how fast the packaged application starts, on the plain JVM and with the
 * JDK AOT cache ({@code app.aot}) that the integration tests recorded.
 *
 * <p>One embedded PostgreSQL, migrated by an unmeasured first start (a replica normally starts
 * against an existing schema). The measured starts are replicas as deploy/k8s/deployment.yaml starts them:
 * no migration at start and no JDBC URL, so no Flyway and no JDBC pool ({@code -Dbench.migrate-at-start=true}
 * measures the default way, each replica migrating and validating at start). Then {@code bench.runs} starts of
 * each variant, interleaved so that
 * machine noise hits both alike: the time from launching {@code java} to the first 200 on
 * GET /api/v1/health (polled every 5 ms), and the resident set size after 50 requests to it.
 * Reports every run and the medians. The AOT variant runs with {@code -XX:AOTMode=on}, so a cache
 * the JVM cannot use fails the run instead of silently measuring the plain JVM.
 *
 * <p>Run: {@code ./mvnw -B -Pstartup-bench verify} (records the cache in the integration tests,
 * then measures). Knobs: bench.runs (3), bench.jvm-options (extra JVM options for both variants,
 * space-separated; the profile's default is Dockerfile.jvm's {@code -XX:+UseSerialGC -Xmx160m}), bench.migrate-at-start
 * (false). Goal on the 2-core build machines: at most 1.5 s to the first 200 with the cache.
 */
public final class StartupBenchmark {

    private static final int REQUESTS = 50;

    record Run(String variant, double secondsToFirst200, long rssKb) {
    }

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "deploy/target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        Path cache = jar.resolveSibling("app.aot");
        int runs = Integer.getInteger("bench.runs", 3);
        if (!Files.exists(cache)) {
            throw new IllegalStateException("no AOT cache at " + cache
                    + ": it is recorded by the integration tests on JDK 25+ (./mvnw -B -Pstartup-bench verify)");
        }
        List<String> extra = System.getProperty("bench.jvm-options", "").isBlank() ? List.of()
                : List.of(System.getProperty("bench.jvm-options").trim().split("\\s+"));
        List<String> plain = extra;
        List<String> aot = new ArrayList<>(extra);
        aot.addAll(List.of("-XX:AOTCache=" + cache, "-XX:AOTMode=on"));
        boolean migrating = Boolean.getBoolean("bench.migrate-at-start");
        try (EmbeddedPostgres postgres = EmbeddedPostgres.builder().start()) {
            System.out.println("Migrating the schema (unmeasured start)...");
            start(jar, postgres, List.of(), true, "warm-up");
            List<Run> all = new ArrayList<>();
            for (int i = 1; i <= runs; i++) {
                all.add(start(jar, postgres, plain, migrating, "plain JVM"));
                all.add(start(jar, postgres, aot, migrating, "AOT cache"));
            }
            StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                    "Startup (java %s, %d cores%s, %s): launch -> first 200 on /api/v1/health; RSS after %d requests%n",
                    System.getProperty("java.version"), Runtime.getRuntime().availableProcessors(),
                    extra.isEmpty() ? "" : ", options " + String.join(" ", extra),
                    migrating ? "migrating at start" : "a replica of deploy/k8s (no Flyway, no JDBC URL)", REQUESTS));
            for (Run run : all) {
                report.append(String.format(Locale.ROOT, "  %-9s  %.3f s  %6.1f MB%n", run.variant(),
                        run.secondsToFirst200(), run.rssKb() / 1024.0));
            }
            for (String variant : List.of("plain JVM", "AOT cache")) {
                List<Run> mine = all.stream().filter(r -> r.variant().equals(variant)).toList();
                report.append(String.format(Locale.ROOT, "median %-9s  %.3f s  %6.1f MB%n", variant,
                        median(mine.stream().mapToDouble(Run::secondsToFirst200).toArray()),
                        median(mine.stream().mapToDouble(r -> r.rssKb() / 1024.0).toArray())));
            }
            System.out.print(report);
            Path out = jar.getParent().getParent().resolve("bench-startup.txt");
            Files.writeString(out, report);
            System.out.println("Written to " + out);
        }
    }

    private static Run start(Path jar, EmbeddedPostgres postgres, List<String> jvmOptions, boolean migrating,
            String variant) throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String jdbc = "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
        Path log = Files.createTempFile("startup-bench", ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).directory(jar.getParent().toFile())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("QUARKUS_DATASOURCE_REACTIVE_URL", jdbc.substring(5));
        // a replica of deploy/k8s/deployment.yaml: no migration at start and a blank JDBC URL
        builder.environment().put("QUARKUS_DATASOURCE_JDBC_URL", migrating ? jdbc : "");
        builder.environment().put("VOICEAGENT_MIGRATE_AT_START", String.valueOf(migrating));
        builder.environment().put("QUARKUS_DATASOURCE_USERNAME", "postgres");
        builder.environment().put("QUARKUS_DATASOURCE_PASSWORD", "postgres");
        builder.environment().put("QUARKUS_HTTP_PORT", String.valueOf(port));
        builder.environment().put("VOICEAGENT_CALLBACKS_BASE_URL", "http://localhost:" + port);
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(1)).build();
        HttpRequest health = HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/health")).build();
        long launched = System.nanoTime();
        Process process = builder.start();
        try {
            double seconds = waitFor200(process, http, health, launched, log);
            for (int i = 0; i < REQUESTS; i++) {
                int status = http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode();
                if (status != 200) {
                    throw new IllegalStateException("health answered " + status);
                }
            }
            return new Run(variant, seconds, rssKb(process));
        } finally {
            process.destroy();
            process.waitFor();
            Files.deleteIfExists(log);
        }
    }

    private static double waitFor200(Process process, HttpClient http, HttpRequest health, long launched, Path log)
            throws Exception {
        long deadline = launched + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("application exited:\n" + Files.readString(log));
            }
            try {
                if (http.send(health, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return (System.nanoTime() - launched) / 1e9;
                }
            } catch (IOException notYet) {
                // not listening yet
            }
            Thread.sleep(5);
        }
        throw new IllegalStateException("no 200 within 60 s:\n" + Files.readString(log));
    }

    private static long rssKb(Process process) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        throw new IllegalStateException("no VmRSS for " + process.pid());
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }
}
