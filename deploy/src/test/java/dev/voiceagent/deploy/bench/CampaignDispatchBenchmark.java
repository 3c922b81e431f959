package dev.voiceagent.deploy.bench;

import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Benchmark (not a test) of the campaign engine against the packaged application and a fresh
 * embedded PostgreSQL, load generator and database on the same machine.
 *
 * <ol>
 * <li>Dispatch: a campaign of bench.contacts (3,000) simulator calls of about 0.3 s each at
 * max_concurrency 100 (organization limit raised to 200). Sustained dials per second between the
 * first and the last dial, the peak of live calls, and the delay from a slot freeing (a call's end
 * applied to the ledger) to the next dial that took it: with the pool saturated, the k-th dial
 * after the first 100 takes the slot freed by the k-th end, so delay = start(100 + k) - end(k).</li>
 * <li>Import: a bench.rows (1,000,000) row CSV placed in the local store, validated by create and
 * imported after start (outside its calling window, so nothing is dialed), with the application's
 * RSS sampled throughout and its import progress log lines.</li>
 * </ol>
 * Run: {@code ./mvnw -B -Pbench -DskipTests verify} (runs both benchmarks); figures are written to
 * deploy/target/bench-campaign-dispatch.txt.
 */
public final class CampaignDispatchBenchmark {

    private static final String WORKFLOW = """
            {"name":"Bench","workflow_definition":{"nodes":[
            {"id":"start","type":"startCall","position":{"x":1,"y":2},"data":{"name":"Start","prompt":"Hi","greeting":"Hello"}},
            {"id":"agent","type":"agentNode","position":{"x":1,"y":2},"data":{"name":"Agent","prompt":"Help"}},
            {"id":"end","type":"endCall","position":{"x":1,"y":2},"data":{"name":"End","prompt":"Bye"}}],
            "edges":[{"id":"e1","source":"start","target":"agent","data":{"label":"Go","condition":"c"}},
            {"id":"e2","source":"agent","target":"end","data":{"label":"Done","condition":"c"}}]}}""";

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "deploy/target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        int contacts = Integer.getInteger("bench.contacts", 3000);
        int rows = Integer.getInteger("bench.rows", 1_000_000);
        Path store = Files.createTempDirectory("bench-objects");
        List<String> report = new ArrayList<>();
        try (BenchApp app = new BenchApp(jar, Map.of("VOICEAGENT_STORAGE_LOCAL_ROOT", store.toString(),
                "VOICEAGENT_CAMPAIGNS_MAX_SOURCE_BYTES", String.valueOf(256L << 20),
                "QUARKUS_LOG_CATEGORY__DEV_VOICEAGENT_APPLICATION_CAMPAIGN__LEVEL", "INFO"))) {
            app.signUp();
            long org = (long) app.queryDouble("SELECT id FROM organizations ORDER BY id DESC LIMIT 1");
            try (Connection c = app.sql(); PreparedStatement ps = c.prepareStatement(
                    "UPDATE organizations SET concurrent_call_limit = 200 WHERE id = ?")) {
                ps.setLong(1, org);
                ps.executeUpdate();
            }
            long workflow = Long.parseLong(BenchApp.field(app.post("/api/v1/workflow/create/definition", WORKFLOW, null),
                    "id"));
            app.post("/api/v1/organizations/telephony-configs", "{\"name\":\"Sim\",\"config\":{\"provider\":\"simulator\","
                    + "\"ring_delay_ms\":100,\"default_duration_seconds\":1}}", null);
            dispatch(app, org, workflow, contacts, store, report);
            importMillion(app, org, workflow, rows, store, report);
        }
        String text = String.join(System.lineSeparator(), report);
        System.out.println(text);
        Path out = Path.of(jar.getParent().getParent().toString(), "bench-campaign-dispatch.txt");
        Files.writeString(out, text + System.lineSeparator());
        System.out.println("Written to " + out);
    }

    private static long createCampaign(BenchApp app, long workflow, String key, String extra) throws Exception {
        return Long.parseLong(BenchApp.field(app.post("/api/v1/campaign/create", "{\"name\":\"Bench\",\"workflow_id\":"
                + workflow + ",\"source_type\":\"csv\",\"source_id\":\"" + key + "\"" + extra + "}", null), "id"));
    }

    private static void dispatch(BenchApp app, long org, long workflow, int contacts, Path store, List<String> report)
            throws Exception {
        String key = "campaigns/" + org + "/dispatch.csv";
        writeCsv(store.resolve(key), contacts, 0);
        long id = createCampaign(app, workflow, key, ",\"max_concurrency\":100,\"retry_config\":{\"enabled\":false},"
                + "\"circuit_breaker\":{\"enabled\":false}");
        System.out.printf(Locale.ROOT, "Dispatch: %d contacts at max_concurrency 100...%n", contacts);
        app.post("/api/v1/campaign/" + id + "/start", "", null);
        long peak = 0;
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (System.nanoTime() < deadline) {
            peak = Math.max(peak, (long) app.queryDouble("SELECT count(*) FROM calls WHERE campaign_id = ? AND status IN"
                    + " ('initiated', 'ringing', 'in-progress')", id));
            if (BenchApp.field(app.get("/api/v1/campaign/" + id), "state").equals("completed")) {
                break;
            }
            Thread.sleep(50);
        }
        double span = app.queryDouble("SELECT extract(epoch FROM max(started_at) - min(started_at)) FROM calls"
                + " WHERE campaign_id = ?", id);
        double dials = app.queryDouble("SELECT count(*) FROM calls WHERE campaign_id = ?", id);
        String delays = """
                WITH s AS (SELECT started_at, row_number() OVER (ORDER BY started_at, id) AS n FROM calls WHERE campaign_id = ?),
                     e AS (SELECT ended_at, row_number() OVER (ORDER BY ended_at, id) AS n FROM calls WHERE campaign_id = ?),
                     d AS (SELECT extract(epoch FROM s.started_at - e.ended_at) * 1000 AS ms FROM s JOIN e ON s.n = e.n + 100)
                SELECT percentile_cont(?) WITHIN GROUP (ORDER BY ms) FROM d""";
        double p50 = app.queryDouble(delays, id, id, 0.5);
        double p90 = app.queryDouble(delays, id, id, 0.9);
        double p99 = app.queryDouble(delays, id, id, 0.99);
        report.add(String.format(Locale.ROOT, "Dispatch, simulator, max_concurrency 100: %.0f dials in %.1f s ="
                        + " %.0f dials/s sustained; peak live calls %d", dials, span, dials / span, peak));
        report.add(String.format(Locale.ROOT, "  slot freed -> next dial: p50 %.1f ms | p90 %.1f ms | p99 %.1f ms",
                p50, p90, p99));
    }

    private static void importMillion(BenchApp app, long org, long workflow, int rows, Path store, List<String> report)
            throws Exception {
        String key = "campaigns/" + org + "/million.csv";
        writeCsv(store.resolve(key), rows, 1_000_000);
        long bytes = Files.size(store.resolve(key));
        long[] before = app.rssKb();
        System.out.printf(Locale.ROOT, "Import: %d rows (%.1f MB)...%n", rows, bytes / 1e6);
        long t0 = System.nanoTime();
        int day = (LocalDate.now(ZoneOffset.UTC).getDayOfWeek().getValue() - 1 + 3) % 7; // closed: nothing is dialed
        long id = createCampaign(app, workflow, key, ",\"schedule_config\":{\"enabled\":true,\"timezone\":\"UTC\","
                + "\"slots\":[{\"day_of_week\":" + day + ",\"start_time\":\"09:00\",\"end_time\":\"17:00\"}]}");
        double validate = (System.nanoTime() - t0) / 1e9;
        long[] afterCreate = app.rssKb();
        long t1 = System.nanoTime();
        app.post("/api/v1/campaign/" + id + "/start", "", null);
        List<Long> samples = new ArrayList<>();
        while (!BenchApp.field(app.get("/api/v1/campaign/" + id), "state").equals("running")) {
            samples.add(app.rssKb()[0]);
            if (!app.process.isAlive() || System.nanoTime() - t1 > Duration.ofMinutes(20).toNanos()) {
                throw new IllegalStateException("import did not finish; see " + app.log);
            }
            Thread.sleep(500);
        }
        double imported = (System.nanoTime() - t1) / 1e9;
        long[] after = app.rssKb();
        double total = app.queryDouble("SELECT count(*) FROM campaign_contacts WHERE campaign_id = ?", id);
        report.add(String.format(Locale.ROOT, "Import of %d rows (%.1f MB): create (validates every row) %.1f s;"
                + " import %.1f s = %.0f rows/s; %d contacts stored", rows, bytes / 1e6, validate, imported,
                total / imported, (long) total));
        report.add(String.format(Locale.ROOT, "  RSS MB: before %d | after create %d | during import min %d, max %d"
                        + " | after %d | process peak (VmHWM) %d", before[0] / 1024, afterCreate[0] / 1024,
                samples.stream().mapToLong(Long::longValue).min().orElse(0) / 1024,
                samples.stream().mapToLong(Long::longValue).max().orElse(0) / 1024, after[0] / 1024, after[1] / 1024));
        Files.readAllLines(app.log).stream().filter(l -> l.contains("contacts imported"))
                .map(l -> "  log: " + l.substring(Math.max(0, l.indexOf("campaign ")))).forEach(report::add);
    }

    /** phone_number column only; numbers +1555 followed by 7 digits, from {@code first} on. */
    private static void writeCsv(Path file, int rows, int first) throws Exception {
        Files.createDirectories(file.getParent());
        try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write("phone_number\n");
            for (int i = 0; i < rows; i++) {
                out.write("+1555" + String.format(Locale.ROOT, "%07d", (first + i) % 10_000_000) + "\n");
            }
        }
    }
}
