package dev.voiceagent.deploy.bench;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Benchmark (not a test): GET /api/v1/campaign/ against the packaged application.
 *
 * <p>Starts a fresh embedded PostgreSQL, runs {@code java -jar quarkus-run.jar} against it, signs up
 * one organization, loads 100 campaigns with 5 log entries and 10 call attempts each, then drives
 * the list with a closed-loop load generator (virtual threads, keep-alive HTTP/1.1) on the same
 * machine: a warm-up, then a measured run. Prints requests/s, p50, p90, p99 and max latency.
 *
 * <p>Run: {@code ./mvnw -B -Pbench -DskipTests verify}. Knobs (system properties):
 * bench.connections (16), bench.warmup (10 s), bench.duration (30 s), bench.campaigns (100).
 */
public final class CampaignListBenchmark {

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "deploy/target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        int connections = Integer.getInteger("bench.connections", 16);
        int warmup = Integer.getInteger("bench.warmup", 10);
        int duration = Integer.getInteger("bench.duration", 30);
        int campaigns = Integer.getInteger("bench.campaigns", 100);
        try (BenchApp app = new BenchApp(jar, java.util.Map.of())) {
            String apiKey = app.signUp();
            seed(app.postgres, campaigns);
            System.out.printf(Locale.ROOT, "Loaded %d campaigns (5 log entries, 10 attempts each) into one organization%n",
                    campaigns);
            HttpRequest request = HttpRequest.newBuilder(URI.create(app.base + "/api/v1/campaign/"))
                    .header("X-API-Key", apiKey).GET().build();
            HttpResponse<String> sample = app.http.send(request, HttpResponse.BodyHandlers.ofString());
            System.out.printf(Locale.ROOT, "Response: HTTP %d, %d bytes%n", sample.statusCode(), sample.body().length());
            System.out.printf(Locale.ROOT, "Warm-up: %d s at %d connections...%n", warmup, connections);
            run(request, connections, warmup);
            System.out.printf(Locale.ROOT, "Measuring: %d s at %d connections...%n", duration, connections);
            Result result = run(request, connections, duration);
            String report = result.report(connections, duration);
            System.out.println(report);
            Path out = Path.of(jar.getParent().getParent().toString(), "bench-campaign-list.txt");
            Files.writeString(out, report + System.lineSeparator());
            System.out.println("Written to " + out);
        }
    }

    record Result(long[] latenciesNanos, long errors, double seconds) {

        String report(int connections, int duration) {
            long[] sorted = latenciesNanos.clone();
            Arrays.sort(sorted);
            return String.format(Locale.ROOT,
                    "GET /api/v1/campaign/ (100 campaigns): %d requests in %.1f s, %d errors, %d connections%n"
                            + "  requests/s %.0f | p50 %.2f ms | p90 %.2f ms | p99 %.2f ms | max %.2f ms",
                    sorted.length, seconds, errors, connections, sorted.length / seconds,
                    ms(percentile(sorted, 50)), ms(percentile(sorted, 90)), ms(percentile(sorted, 99)),
                    ms(sorted.length == 0 ? 0 : sorted[sorted.length - 1]));
        }

        private static long percentile(long[] sorted, double p) {
            if (sorted.length == 0) {
                return 0;
            }
            int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, index))];
        }

        private static double ms(long nanos) {
            return nanos / 1_000_000.0;
        }
    }

    /** Closed loop: each connection sends its next request when the previous answer has been read. */
    private static Result run(HttpRequest request, int connections, int seconds) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
        List<Future<long[]>> workers = new ArrayList<>();
        long start = System.nanoTime();
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < connections; i++) {
                workers.add(pool.submit(() -> {
                    HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
                    long[] samples = new long[1 << 16];
                    int n = 0;
                    long errors = 0;
                    while (System.nanoTime() < deadline) {
                        long t0 = System.nanoTime();
                        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
                        long elapsed = System.nanoTime() - t0;
                        if (response.statusCode() != 200) {
                            errors++;
                            continue;
                        }
                        if (n == samples.length) {
                            samples = Arrays.copyOf(samples, n * 2);
                        }
                        samples[n++] = elapsed;
                    }
                    long[] result = Arrays.copyOf(samples, n + 1);
                    result[n] = -errors - 1; // last slot carries the error count
                    return result;
                }));
            }
        }
        double elapsed = (System.nanoTime() - start) / 1e9;
        long errors = 0;
        List<Long> all = new ArrayList<>();
        for (Future<long[]> worker : workers) {
            long[] samples = worker.get();
            errors += -(samples[samples.length - 1] + 1);
            for (int i = 0; i < samples.length - 1; i++) {
                all.add(samples[i]);
            }
        }
        return new Result(all.stream().mapToLong(Long::longValue).toArray(), errors, elapsed);
    }





    /** Campaign rows go straight into the tables (creating campaigns through the API comes later). */
    private static void seed(EmbeddedPostgres postgres, int campaigns) throws Exception {
        try (Connection c = postgres.getPostgresDatabase().getConnection()) {
            long org;
            long user;
            try (ResultSet rs = c.createStatement().executeQuery("SELECT id, selected_organization_id FROM users")) {
                rs.next();
                user = rs.getLong(1);
                org = rs.getLong(2);
            }
            long workflow = insert(c, "INSERT INTO workflows (organization_id, name) VALUES (?, 'Benchmark flow')", org);
            long definition = insert(c, "INSERT INTO workflow_definitions (organization_id, workflow_id, version_number,"
                    + " status, workflow_json) VALUES (?, ?, 1, 'published', '{}')", org, workflow);
            long telephony = insert(c,
                    "INSERT INTO telephony_configurations (organization_id, name, provider) VALUES (?, 'Bench trunk', 'twilio')", org);
            for (int i = 0; i < campaigns; i++) {
                long campaign = insert(c, """
                        INSERT INTO campaigns (organization_id, name, workflow_id, created_by, telephony_configuration_id,
                               source_id, state, total_rows, processed_rows, retry_config, max_concurrency,
                               schedule_config, circuit_breaker, created_at, started_at)
                        VALUES (?, ?, ?, ?, ?, ?, 'running', 1000, 250,
                               '{"enabled":true,"max_retries":2,"retry_delay_seconds":120,"retry_on_busy":true,"retry_on_no_answer":true,"retry_on_voicemail":false}',
                               10, '{"enabled":true,"timezone":"Europe/Berlin","slots":[{"day_of_week":0,"start_time":"09:00","end_time":"17:00"},{"day_of_week":1,"start_time":"09:00","end_time":"17:00"}]}',
                               '{"enabled":true,"failure_threshold":0.5,"window_seconds":120,"min_calls_in_window":5}',
                               now() - make_interval(mins => ?), now())
                        """, org, "Campaign " + i, workflow, user, telephony, "campaigns/" + org + "/c" + i + ".csv", campaigns - i);
                for (int e = 0; e < 5; e++) {
                    insert(c, "INSERT INTO campaign_log_entries (organization_id, campaign_id, ts, level, event, message, details)"
                            + " VALUES (?, ?, now(), 'warning', 'circuit_breaker_tripped', 'Failure rate over threshold',"
                            + " '{\"failure_rate\":0.6,\"window_seconds\":120}')", org, campaign);
                }
                for (int a = 0; a < 10; a++) { // 4 contacts waiting, 6 dialed once (the ledger the list counts)
                    boolean queued = a % 3 == 0;
                    long contact = insert(c, "INSERT INTO campaign_contacts (organization_id, campaign_id, row_number,"
                            + " phone_number, state, attempts) VALUES (?, ?, ?, ?, ?, ?)", org, campaign, a + 2,
                            "+1415555" + (1000 + a), queued ? "pending" : "done", queued ? 0 : 1);
                    if (!queued) {
                        long run = insert(c, "INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name,"
                                + " mode, campaign_id) VALUES (?, ?, ?, 'r', 'twilio', ?)", org, workflow, definition, campaign);
                        insert(c, "INSERT INTO calls (organization_id, workflow_run_id, provider, status, to_number,"
                                + " started_at, ended_at, campaign_id, contact_id, attempt_number) VALUES (?, ?, 'twilio',"
                                + " 'completed', '+14155550000', now(), now(), ?, ?, 1)", org, run, campaign, contact);
                    }
                }
            }
        }
    }

    private static long insert(Connection c, String sql, Object... args) throws Exception {
        try (PreparedStatement ps = c.prepareStatement(sql + " RETURNING id")) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private CampaignListBenchmark() {
    }

    static {
        // quiet the embedded database's own logging
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn");
        new java.io.File(System.getProperty("java.io.tmpdir")).mkdirs();
    }
}
