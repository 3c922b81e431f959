package dev.voiceagent.deploy.bench;

import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Benchmark (not a test): the daily report and the daily usage breakdown of one organization with 1,000,000 runs,
 * against the packaged application and a fresh embedded PostgreSQL.
 *
 * <p>Seeds the runs over the last 90 days (eight dispositions, durations 0..600 s, phone numbers, a run in ten a
 * text chat), each with its usage record as the metering tick leaves it, then times requests one after another:
 * GET /organizations/reports/daily for a random one of those days in America/New_York, and GET
 * /organizations/usage/daily-breakdown?days=30 (the organization's zone is America/New_York). Prints p50, p90, p99.
 *
 * <p>Run: {@code cd deploy && ../mvnw -B -Pbench exec:exec@usage-report-benchmark} after a package. Knobs:
 * bench.runs-total (1000000), bench.requests (200).
 */
public final class UsageReportBenchmark {

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "deploy/target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        int runs = Integer.getInteger("bench.runs-total", 1_000_000);
        int requests = Integer.getInteger("bench.requests", 200);
        try (BenchApp app = new BenchApp(jar, Map.of("VOICEAGENT_USAGE_PRICE_PER_SECOND", "0.002"))) {
            app.signUp();
            app.put("/api/v1/organizations/preferences", "{\"timezone\": \"America/New_York\"}");
            String workflow = BenchApp.field(app.post("/api/v1/workflow/create/definition", "{\"name\": \"Bench\","
                    + " \"workflow_definition\": {\"nodes\": [{\"id\": \"start\", \"type\": \"startCall\", \"position\":"
                    + " {\"x\": 0, \"y\": 0}, \"data\": {\"name\": \"Start\", \"prompt\": \"Hello\", \"is_start\": true}},"
                    + " {\"id\": \"end\", \"type\": \"endCall\", \"position\": {\"x\": 0, \"y\": 100}, \"data\":"
                    + " {\"name\": \"End\", \"prompt\": \"Bye\"}}], \"edges\": [{\"id\": \"e\", \"source\": \"start\","
                    + " \"target\": \"end\", \"data\": {\"label\": \"Done\", \"condition\": \"done\"}}]}}",
                    null), "id");
            long started = System.nanoTime();
            seed(app, Long.parseLong(workflow), runs);
            System.out.printf(Locale.ROOT, "Seeded %d runs with their usage records in %.1f s%n", runs,
                    (System.nanoTime() - started) / 1e9);
            Random random = new Random(11);
            LocalDate today = LocalDate.now(ZoneOffset.UTC);
            String daily = measure(app, "daily report", requests, () -> "/api/v1/organizations/reports/daily?date="
                    + today.minusDays(1 + random.nextInt(88)) + "&timezone=America/New_York");
            String breakdown = measure(app, "daily breakdown (30 days)", requests,
                    () -> "/api/v1/organizations/usage/daily-breakdown?days=30");
            String report = String.format(Locale.ROOT, "Usage reports over %d runs (one organization):%n%s%n%s", runs,
                    daily, breakdown);
            System.out.println(report);
            Path out = Path.of(jar.getParent().getParent().toString(), "bench-usage-reports.txt");
            Files.writeString(out, report + System.lineSeparator());
            System.out.println("Written to " + out);
        }
    }

    private static String measure(BenchApp app, String name, int requests, Supplier<String> path)
            throws Exception {
        for (int i = 0; i < 10; i++) {
            get(app, path.get());
        }
        long[] nanos = new long[requests];
        for (int i = 0; i < requests; i++) {
            String p = path.get();
            long t = System.nanoTime();
            get(app, p);
            nanos[i] = System.nanoTime() - t;
        }
        Arrays.sort(nanos);
        return String.format(Locale.ROOT, "  %-26s %d requests | p50 %.1f ms | p90 %.1f ms | p99 %.1f ms", name,
                requests, ms(nanos, 50), ms(nanos, 90), ms(nanos, 99));
    }

    private static void get(BenchApp app, String path) throws Exception {
        HttpResponse<String> response = app.http.send(HttpRequest.newBuilder(URI.create(app.base + path))
                .header("X-API-Key", app.apiKey).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + " -> " + response.statusCode() + " " + response.body());
        }
    }

    private static double ms(long[] sorted, double p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
    }

    /** Runs and usage records in set-based batches of 100,000 (one statement each), then ANALYZE. */
    private static void seed(BenchApp app, long workflow, int runs) throws Exception {
        try (Connection c = app.postgres.getPostgresDatabase().getConnection()) {
            long org;
            long definition;
            try (ResultSet rs = c.createStatement().executeQuery("SELECT w.organization_id, d.id FROM workflows w"
                    + " JOIN workflow_definitions d ON d.workflow_id = w.id WHERE w.id = " + workflow
                    + " ORDER BY d.id LIMIT 1")) {
                rs.next();
                org = rs.getLong(1);
                definition = rs.getLong(2);
            }
            int batch = 100_000;
            for (int from = 0; from < runs; from += batch) {
                int to = Math.min(runs, from + batch);
                c.createStatement().execute("""
                        WITH seeded AS (
                            INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name, mode, call_type,
                                    state, is_completed, metered, usage_info, initial_context, gathered_context,
                                    created_at)
                            SELECT %1$d, %2$d, %3$d, 'bench-' || g, CASE WHEN g %% 10 = 0 THEN 'textchat' ELSE 'twilio' END,
                                   'outbound', 'completed', true, true,
                                   jsonb_build_object('call_duration_seconds', (g * 7919) %% 601),
                                   jsonb_build_object('phone_number', '+1415555' || lpad((g %% 10000)::text, 4, '0')),
                                   jsonb_build_object('mapped_call_disposition', (ARRAY['XFER', 'VM', 'NA', 'DNC', 'BUSY',
                                       'HANGUP', 'COMPLETED', 'ODD'])[1 + (g * 31) %% 8]),
                                   now() - make_interval(secs => (g * 7777) %% (90 * 86400))
                              FROM generate_series(%4$d::bigint, %5$d::bigint) AS g
                            RETURNING id, organization_id, workflow_id, created_at, mode, usage_info)
                        INSERT INTO usage_records (workflow_run_id, organization_id, workflow_id, run_created_at,
                                metered_at, call_seconds, price_per_second, charge_minor, currency)
                        SELECT id, organization_id, workflow_id, created_at, now(),
                               CASE WHEN mode = 'textchat' THEN 0 ELSE (usage_info->>'call_duration_seconds')::int END,
                               0.002,
                               CASE WHEN mode = 'textchat' THEN 0
                                    ELSE round((usage_info->>'call_duration_seconds')::int * 0.2) END, 'USD'
                          FROM seeded""".formatted(org, workflow, definition, from + 1, to));
                System.out.printf(Locale.ROOT, "  seeded %d runs%n", to);
            }
            // what the metering transaction keeps beside the records
            c.createStatement().execute("INSERT INTO usage_quarter_hours (organization_id, quarter_start, call_seconds,"
                    + " charge_minor, runs, calls) SELECT organization_id, date_bin('15 minutes', run_created_at,"
                    + " TIMESTAMPTZ '2000-01-01 00:00:00+00'), sum(call_seconds), sum(charge_minor), count(*),"
                    + " count(*) FILTER (WHERE call_seconds > 0) FROM usage_records GROUP BY 1, 2");
            c.createStatement().execute("ANALYZE workflow_runs");
            c.createStatement().execute("ANALYZE usage_records");
            c.createStatement().execute("ANALYZE usage_quarter_hours");
        }
    }
}
