package dev.voiceagent.deploy.bench;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.File;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark (not a test): GET /api/v1/campaign/ against the packaged application, driven by wrk.
 *
 * <p>Starts a fresh embedded PostgreSQL, runs {@code java -jar quarkus-run.jar} against it, signs up
 * one organization and loads the data volume: 100 campaigns with retry, schedule and
 * circuit-breaker settings, 3 log entries and 20 contacts each (12 of them dialed once). wrk (the
 * Debian package, installed with apt-get when missing) then drives the list from the same machine:
 * per round a warm-up, {@code wrk -t2 -c16} and {@code wrk -t1 -c1}; the process RSS is sampled while
 * the 16-connection load runs, and the CPU time the application and PostgreSQL spent on it (from /proc).
 * Prints requests/s, p50, p90, p99 per round and the medians.
 *
 * <p>Run: {@code ./mvnw -B -Pbench -DskipTests verify}. Knobs (system properties):
 * bench.connections (16), bench.duration (15 s), bench.warmup (10 s), bench.rounds (3), bench.campaigns (100),
 * bench.jvm-options (extra JVM options for the application, none by default).
 */
public final class CampaignListBenchmark {

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "deploy/target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        int connections = Integer.getInteger("bench.connections", 16);
        int warmup = Integer.getInteger("bench.warmup", 10);
        int duration = Integer.getInteger("bench.duration", 15);
        int rounds = Integer.getInteger("bench.rounds", 3);
        int campaigns = Integer.getInteger("bench.campaigns", 100);
        String wrk = Wrk.ensureInstalled();
        String[] jvmOptions = System.getProperty("bench.jvm-options", "").isBlank() ? new String[0]
                : System.getProperty("bench.jvm-options").trim().split("\\s+");
        // The process as Dockerfile.jvm runs it: no MALLOC_ARENA_MAX (with 2, the peak RSS was within the spread
        // between runs: 333-339 against 337-347 MB). The documentation index is written at once (while the data
        // is seeded), not 20 s later in a measured run.
        try (BenchApp app = new BenchApp(jar, Map.of("VOICEAGENT_DOCS_INDEX_DELAY", "PT0S"), jvmOptions)) {
            String apiKey = app.signUp();
            seed(app.postgres, campaigns);
            System.out.printf(Locale.ROOT, "Loaded %d campaigns (3 log entries, 20 contacts, 12 calls each) into one"
                    + " organization%n", campaigns);
            HttpRequest request = HttpRequest.newBuilder(URI.create(app.base + "/api/v1/campaign/"))
                    .header("X-API-Key", apiKey).GET().build();
            HttpResponse<String> sample = app.http.send(request, HttpResponse.BodyHandlers.ofString());
            if (sample.statusCode() != 200 || !sample.body().contains("\"campaigns\"")) {
                throw new IllegalStateException("the list answered " + sample.statusCode() + ": " + sample.body());
            }
            StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                    "GET /api/v1/campaign/: %d campaigns, %d bytes per response; wrk %d s per run after %d s of warm-up%n",
                    campaigns, sample.body().getBytes(StandardCharsets.UTF_8).length, duration, warmup));
            List<Wrk.Result> many = new ArrayList<>();
            List<Wrk.Result> one = new ArrayList<>();
            List<Long> rss = new ArrayList<>();
            String url = app.base + "/api/v1/campaign/";
            for (int round = 1; round <= rounds; round++) {
                Wrk.run(wrk, url, apiKey, 2, connections, warmup);
                long[] peak = {0};
                Thread sampler = Thread.ofVirtual().start(() -> {
                    while (!Thread.currentThread().isInterrupted()) {
                        try {
                            peak[0] = Math.max(peak[0], app.rssKb()[0]);
                            Thread.sleep(200);
                        } catch (Exception stop) {
                            return;
                        }
                    }
                });
                app.resetStatements();
                CpuTime before = CpuTime.now(app.process.pid());
                Wrk.Result loaded = Wrk.run(wrk, url, apiKey, 2, connections, duration);
                CpuTime spent = CpuTime.now(app.process.pid()).minus(before);
                String statements = app.topStatements(5);
                sampler.interrupt();
                sampler.join();
                Wrk.Result single = Wrk.run(wrk, url, apiKey, 1, 1, duration);
                many.add(loaded);
                one.add(single);
                rss.add(peak[0]);
                String line = String.format(Locale.ROOT, "round %d: %d connections %s, RSS max %d MB, CPU per request:"
                        + " application %.2f ms, PostgreSQL %.2f ms | 1 connection %s", round, connections, loaded,
                        peak[0] / 1024, spent.applicationMs() / loaded.requests(), spent.postgresMs() / loaded.requests(),
                        single);
                System.out.println(line);
                report.append(line).append(System.lineSeparator());
                if (round == 1) {
                    System.out.print("PostgreSQL's time during the loaded run, by statement:\n" + statements);
                    report.append("PostgreSQL's time during the loaded run, by statement:\n").append(statements);
                }
            }
            String summary = String.format(Locale.ROOT, "median of %d rounds: %d connections %s, RSS max %d MB"
                    + " | 1 connection %s", rounds, connections, Wrk.Result.median(many), median(rss) / 1024,
                    Wrk.Result.median(one));
            report.append(summary).append(System.lineSeparator());
            System.out.println(summary);
            Path out = Path.of(jar.getParent().getParent().toString(), "bench-campaign-list.txt");
            Files.writeString(out, report);
            System.out.println("Written to " + out);
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
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
                        VALUES (?, ?, ?, ?, ?, ?, 'paused', 1000, 250, -- paused: the dispatcher leaves them alone
                               '{"enabled":true,"max_retries":2,"retry_delay_seconds":120,"retry_on_busy":true,"retry_on_no_answer":true,"retry_on_voicemail":false}',
                               10, '{"enabled":true,"timezone":"Europe/Berlin","slots":[{"day_of_week":0,"start_time":"09:00","end_time":"17:00"},{"day_of_week":1,"start_time":"09:00","end_time":"17:00"}]}',
                               '{"enabled":true,"failure_threshold":0.5,"window_seconds":120,"min_calls_in_window":5}',
                               now() - make_interval(mins => ?), now())
                        """, org, "Campaign " + i, workflow, user, telephony, "campaigns/" + org + "/c" + i + ".csv", campaigns - i);
                for (int e = 0; e < 3; e++) {
                    insert(c, "INSERT INTO campaign_log_entries (organization_id, campaign_id, ts, level, event, message, details)"
                            + " VALUES (?, ?, now(), 'warning', 'circuit_breaker_tripped', 'Failure rate over threshold',"
                            + " '{\"failure_rate\":0.6,\"window_seconds\":120}')", org, campaign);
                }
                for (int a = 0; a < 20; a++) { // 8 contacts waiting, 12 dialed once (the ledger the list counts)
                    boolean queued = a % 5 < 2;
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
            // statistics as autovacuum would have gathered them on a live database (the bulk load came first)
            c.createStatement().execute("ANALYZE");
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
        new File(System.getProperty("java.io.tmpdir")).mkdirs();
    }
}
