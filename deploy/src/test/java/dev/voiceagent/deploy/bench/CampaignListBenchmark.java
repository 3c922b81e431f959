package dev.voiceagent.deploy.bench;

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
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * Benchmark (not a test): GET /api/v1/campaign/ against the packaged application, driven by wrk.
 *
 * <p>Starts a fresh PostgreSQL (embedded, or Debian's), runs {@code java -jar quarkus-run.jar} against it, signs up
 * one organization and loads the data volume: 100 campaigns with retry, schedule and
 * circuit-breaker settings, 3 log entries and 20 contacts each (12 of them dialed once). wrk (the
 * Debian package, installed with apt-get when missing) then drives the list from the same machine:
 * per round a warm-up, {@code wrk -t2 -c16} and {@code wrk -t1 -c1}; the process RSS is sampled while
 * the 16-connection load runs, and the CPU time the application and PostgreSQL spent on it (from /proc).
 * Prints requests/s, p50, p90, p99 per round and the medians.
 *
 * <p>With {@code -Dbench.reference=dograh} (and {@code -Dbench.postgres=debian}: the same PostgreSQL server for both,
 * Debian's, whose pgvector the reference's migrations create) the reference system's own list handler is measured
 * beside ours, round by round, on the same server with the same campaigns in its schema ({@link ReferenceReplica},
 * {@code src/test/resources/reference/dograh/serve.sh}), and the ratio printed.
 *
 * <p>Run: {@code ./mvnw -B -Pbench -DskipTests verify}. Knobs (system properties):
 * bench.connections (16), bench.duration (15 s), bench.warmup (10 s), bench.first-warmup (30 s more before the first
 * round), bench.rounds (3), bench.campaigns (100),
 * bench.jvm-options (extra JVM options for the application, none by default), bench.postgres (embedded or debian),
 * bench.reference (dograh, or empty), bench.reference-workers (1, as the reference runs a replica: FASTAPI_WORKERS).
 */
public final class CampaignListBenchmark {

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "deploy/target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        int connections = Integer.getInteger("bench.connections", 16);
        int warmup = Integer.getInteger("bench.warmup", 10);
        // a JIT's steady state takes more than the rounds' own warm-up on two cores that the load shares: the
        // throughput compared is the steady one (the start's own figures: StartupBenchmark)
        int firstWarmup = Integer.getInteger("bench.first-warmup", 30);
        int duration = Integer.getInteger("bench.duration", 15);
        int rounds = Integer.getInteger("bench.rounds", 3);
        int campaigns = Integer.getInteger("bench.campaigns", 100);
        boolean reference = "dograh".equals(System.getProperty("bench.reference", ""));
        if (reference && !"debian".equals(System.getProperty("bench.postgres"))) {
            throw new IllegalStateException("bench.reference=dograh runs the reference on the same PostgreSQL server as"
                    + " ours, whose migrations need pgvector: add -Dbench.postgres=debian");
        }
        String wrk = Wrk.ensureInstalled();
        String[] jvmOptions = System.getProperty("bench.jvm-options", "").isBlank() ? new String[0]
                : System.getProperty("bench.jvm-options").trim().split("\\s+");
        // The process as Dockerfile.jvm runs it: no MALLOC_ARENA_MAX (with 2, the peak RSS was within the spread
        // between runs: 333-339 against 337-347 MB). The documentation index is written at once (while the data
        // is seeded), not 20 s later in a measured run.
        try (BenchApp app = new BenchApp(jar, Map.of("VOICEAGENT_DOCS_INDEX_DELAY", "PT0S"), jvmOptions)) {
            String apiKey = app.signUp();
            seed(app, campaigns);
            System.out.printf(Locale.ROOT, "Loaded %d campaigns (3 log entries, 20 contacts, 12 calls each) into one"
                    + " organization%n", campaigns);
            Side ours = new Side("ours", app.base + "/api/v1/campaign/", apiKey,
                    () -> CpuTime.now(app.process.pid()), () -> app.rssKb()[0]);
            int bytes = ours.check(app, campaigns);
            StringBuilder report = new StringBuilder(String.format(Locale.ROOT,
                    "GET /api/v1/campaign/: %d campaigns, %d bytes per response; wrk %d s per run after %d s of warm-up"
                    + " (%d s more before the first round)%n", campaigns, bytes, duration, warmup, firstWarmup));
            ReferenceReplica dograh = null;
            Side theirs = null;
            try {
                if (reference) {
                    int workers = Integer.getInteger("bench.reference-workers", 1);
                    dograh = ReferenceReplica.start(app.postgresPort(), campaigns, workers);
                    ReferenceReplica started = dograh;
                    theirs = new Side("reference", dograh.base + "/api/v1/campaign/", ReferenceReplica.API_KEY,
                            started::cpu, started::rssKb);
                    int theirBytes = theirs.check(app, campaigns);
                    String line = String.format(Locale.ROOT, "the reference (Dograh's own list handler on uvicorn, %d"
                            + " workers, the same PostgreSQL server, the same campaigns in its schema): %d bytes per"
                            + " response%n", workers, theirBytes);
                    System.out.print(line);
                    report.append(line);
                }
                List<Side> sides = theirs == null ? List.of(ours) : List.of(ours, theirs);
                for (Side side : sides) {
                    Wrk.run(wrk, side.url, side.apiKey, 2, connections, firstWarmup);
                }
                for (int round = 1; round <= rounds; round++) {
                    for (Side side : sides) {
                        String line = side.round(wrk, app, round, connections, warmup, duration);
                        System.out.print(line);
                        report.append(line);
                    }
                }
                for (Side side : sides) {
                    String summary = String.format(Locale.ROOT, "%s, median of %d rounds: %d connections %s, RSS max %d"
                            + " MB | 1 connection %s%n", side.name, rounds, connections,
                            Wrk.Result.median(side.many), median(side.rss) / 1024, Wrk.Result.median(side.one));
                    report.append(summary);
                    System.out.print(summary);
                }
                if (theirs != null) {
                    Wrk.Result a = Wrk.Result.median(ours.many);
                    Wrk.Result b = Wrk.Result.median(theirs.many);
                    String ratio = String.format(Locale.ROOT, "ours against the reference: %.1fx the requests per"
                            + " second at %d connections (%.0f against %.0f), 1 connection p50 %.2f against %.2f ms%n",
                            a.perSecond() / b.perSecond(), connections, a.perSecond(), b.perSecond(),
                            Wrk.Result.median(ours.one).p50(), Wrk.Result.median(theirs.one).p50());
                    report.append(ratio);
                    System.out.print(ratio);
                }
            } finally {
                if (dograh != null) {
                    dograh.close();
                }
            }
            Path out = Path.of(jar.getParent().getParent().toString(), "bench-campaign-list.txt");
            Files.writeString(out, report);
            System.out.println("Written to " + out);
        }
    }

    /** One server measured: its list's address and key, how to read its CPU time and memory, and its rounds. */
    private static final class Side {
        final String name;
        final String url;
        final String apiKey;
        final Supplier<CpuTime> cpu;
        final Callable<Long> rssKb;
        final List<Wrk.Result> many = new ArrayList<>();
        final List<Wrk.Result> one = new ArrayList<>();
        final List<Long> rss = new ArrayList<>();

        Side(String name, String url, String apiKey, Supplier<CpuTime> cpu, Callable<Long> rssKb) {
            this.name = name;
            this.url = url;
            this.apiKey = apiKey;
            this.cpu = cpu;
            this.rssKb = rssKb;
        }

        /** The list answers 200 with every campaign; its size in bytes. */
        int check(BenchApp app, int campaigns) throws Exception {
            HttpResponse<String> sample = app.http.send(HttpRequest.newBuilder(URI.create(url))
                    .header("X-API-Key", apiKey).GET().build(), HttpResponse.BodyHandlers.ofString());
            int listed = sample.body().split("\"workflow_name\"", -1).length - 1;
            if (sample.statusCode() != 200 || listed != campaigns) {
                throw new IllegalStateException(name + "'s list answered " + sample.statusCode() + " with " + listed
                        + " campaigns: " + sample.body().substring(0, Math.min(500, sample.body().length())));
            }
            return sample.body().getBytes(StandardCharsets.UTF_8).length;
        }

        /** A warm-up, the loaded run (memory sampled, CPU time counted) and the single connection's run. */
        String round(String wrk, BenchApp app, int round, int connections, int warmup, int duration) throws Exception {
            Wrk.run(wrk, url, apiKey, 2, connections, warmup);
            long[] peak = {0};
            Thread sampler = Thread.ofVirtual().start(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    try {
                        peak[0] = Math.max(peak[0], rssKb.call());
                        Thread.sleep(200);
                    } catch (Exception stop) {
                        return;
                    }
                }
            });
            app.resetStatements();
            CpuTime before = cpu.get();
            Wrk.Result loaded = Wrk.run(wrk, url, apiKey, 2, connections, duration);
            CpuTime spent = cpu.get().minus(before);
            String statements = app.topStatements(5);
            sampler.interrupt();
            sampler.join();
            Wrk.Result single = Wrk.run(wrk, url, apiKey, 1, 1, duration);
            many.add(loaded);
            one.add(single);
            rss.add(peak[0]);
            String line = String.format(Locale.ROOT, "%s, round %d: %d connections %s, RSS max %d MB, CPU per request:"
                    + " application %.2f ms, PostgreSQL %.2f ms | 1 connection %s%n", name, round, connections, loaded,
                    peak[0] / 1024, spent.applicationMs() / loaded.requests(), spent.postgresMs() / loaded.requests(),
                    single);
            return round == 1 ? line + "PostgreSQL's time during the loaded run, by statement:\n" + statements : line;
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    /** Campaign rows go straight into the tables (creating campaigns through the API comes later). */
    private static void seed(BenchApp app, int campaigns) throws Exception {
        try (Connection c = app.sql()) {
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
