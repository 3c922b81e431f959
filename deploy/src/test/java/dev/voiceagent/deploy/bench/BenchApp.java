package dev.voiceagent.deploy.bench;

import dev.voiceagent.deploy.support.DebianPostgresCluster;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.net.ServerSocket;
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
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * For the benchmarks: the packaged application ({@code java -jar quarkus-run.jar}) in its own
 * process against a fresh embedded PostgreSQL, with an organization signed up and an API key, and
 * small HTTP and SQL helpers. Closing it stops both.
 */
final class BenchApp implements AutoCloseable {

    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\"\\s*:\\s*\"?([^\",}]*)");

    /** The embedded server, or null when the benchmark runs on Debian's PostgreSQL with pgvector (bench.postgres=debian). */
    final EmbeddedPostgres postgres;
    private final DebianPostgresCluster debian;
    final Process process;
    final String base;
    final Path log;
    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    String apiKey;

    BenchApp(Path jar, Map<String, String> env, String... jvmOptions) throws Exception {
        if (!Files.exists(jar)) {
            throw new IllegalStateException("packaged application not found at " + jar + " (run ./mvnw package first)");
        }
        if ("debian".equals(System.getProperty("bench.postgres"))) {
            if (!DebianPostgresCluster.withPgvector()) {
                throw new IllegalStateException("bench.postgres=debian needs Debian's postgresql-15 with pgvector:"
                        + " run .ci/install-pgvector as root");
            }
            debian = DebianPostgresCluster.start();
            postgres = null;
        } else {
            debian = null;
            postgres = EmbeddedPostgres.builder().setServerConfig("max_connections", "200")
                    .setServerConfig("shared_preload_libraries", "pg_stat_statements").start();
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        String jdbc = debian != null ? debian.jdbcUrl()
                : "jdbc:postgresql://localhost:" + postgres.getPort() + "/postgres";
        log = Files.createTempFile("bench-app", ".log");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-jar", jar.toString()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        builder.environment().put("QUARKUS_DATASOURCE_REACTIVE_URL", jdbc.substring(5));
        builder.environment().put("QUARKUS_DATASOURCE_JDBC_URL", jdbc);
        builder.environment().put("QUARKUS_DATASOURCE_USERNAME", "postgres");
        builder.environment().put("QUARKUS_DATASOURCE_PASSWORD", "postgres");
        builder.environment().put("QUARKUS_HTTP_PORT", String.valueOf(port));
        builder.environment().put("QUARKUS_LOG_LEVEL", "WARN");
        builder.environment().put("MALLOC_ARENA_MAX", "2"); // as Dockerfile.jvm starts the service
        builder.environment().put("VOICEAGENT_CALLBACKS_BASE_URL", "http://localhost:" + port);
        // the benchmarks drive one key far beyond the default per-key limit: measured without it unless asked
        builder.environment().put("VOICEAGENT_RATE_LIMIT_ENABLED", "false");
        builder.environment().put("VOICEAGENT_CALLING_HOURS_DEFAULT", "00:00-24:00"); // the dispatch bench, at any hour
        builder.environment().putAll(env);
        process = builder.start();
        base = "http://localhost:" + port;
        waitUntilUp();
    }

    private void waitUntilUp() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("application exited:\n" + Files.readString(log));
            }
            try {
                if (http.send(HttpRequest.newBuilder(URI.create(base + "/api/v1/health")).build(),
                        HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("application did not answer within 60 s");
    }

    /**
     * Waits until the replica says it is ready (its warm-up done: {@code /q/health/ready} 200) and returns its
     * readiness report's body; at most {@code limit}.
     */
    String waitUntilReady(Duration limit) throws Exception {
        long deadline = System.nanoTime() + limit.toNanos();
        while (System.nanoTime() < deadline) {
            HttpResponse<String> ready = http.send(HttpRequest.newBuilder(URI.create(base + "/q/health/ready"))
                    .build(), HttpResponse.BodyHandlers.ofString());
            if (ready.statusCode() == 200) {
                return ready.body();
            }
            Thread.sleep(50);
        }
        throw new IllegalStateException("the application was not ready within " + limit);
    }

    /** Signs up one organization and keeps an API key for it. */
    String signUp() throws Exception {
        String signup = post("/api/v1/auth/signup", "{\"email\":\"bench@example.com\",\"password\":\"benchmark-password\"}",
                null);
        apiKey = field(post("/api/v1/user/api-keys", "{\"name\":\"bench\"}", field(signup, "token")), "api_key");
        return apiKey;
    }

    /** POST as the bearer {@code token}, or as the API key when {@code token} is null; 200 expected. */
    String post(String path, String json, String token) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
        if (token != null) {
            request.header("authorization", "Bearer " + token);
        } else if (apiKey != null) {
            request.header("X-API-Key", apiKey);
        }
        return expect200(path, http.send(request.build(), HttpResponse.BodyHandlers.ofString()));
    }

    /** POST a form with {@code headers} (a carrier's webhook, signed as it signs them); 200 expected. */
    String postForm(String path, String form, Map<String, String> headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form));
        headers.forEach(request::header);
        return expect200(path, http.send(request.build(), HttpResponse.BodyHandlers.ofString()));
    }

    /** PUT as the API key; 200 expected. */
    String put(String path, String json) throws Exception {
        return expect200(path, http.send(HttpRequest.newBuilder(URI.create(base + path)).header("X-API-Key", apiKey)
                .header("Content-Type", "application/json").PUT(HttpRequest.BodyPublishers.ofString(json)).build(),
                HttpResponse.BodyHandlers.ofString()));
    }

    String get(String path) throws Exception {
        return expect200(path, http.send(HttpRequest.newBuilder(URI.create(base + path)).header("X-API-Key", apiKey)
                .build(), HttpResponse.BodyHandlers.ofString()));
    }

    private static String expect200(String path, HttpResponse<String> response) {
        if (response.statusCode() != 200) {
            throw new IllegalStateException(path + " -> " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    static String field(String json, String name) {
        Matcher m = FIELD.matcher(json);
        while (m.find()) {
            if (m.group(1).equals(name)) {
                return m.group(2);
            }
        }
        throw new IllegalStateException(name + " not in " + json);
    }

    /** The port of the PostgreSQL server the application runs on. */
    int postgresPort() {
        return debian != null ? debian.port() : postgres.getPort();
    }

    Connection sql() throws Exception {
        return debian != null ? debian.connection() : postgres.getPostgresDatabase().getConnection();
    }

    double queryDouble(String sql, Object... args) throws Exception {
        try (Connection c = sql(); PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                ps.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getDouble(1);
            }
        }
    }

    /** Forgets what pg_stat_statements counted so far (the extension is created on first use). */
    void resetStatements() throws Exception {
        try (Connection c = sql()) {
            c.createStatement().execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            c.createStatement().execute("SELECT pg_stat_statements_reset()");
        }
    }

    /** The statements that took the most time in PostgreSQL since the last reset: calls, mean and total. */
    String topStatements(int limit) throws Exception {
        StringBuilder out = new StringBuilder();
        try (Connection c = sql(); PreparedStatement ps = c.prepareStatement("SELECT calls, mean_exec_time,"
                + " total_exec_time, regexp_replace(query, '\\s+', ' ', 'g') FROM pg_stat_statements"
                + " WHERE query NOT ILIKE '%pg_stat_statements%' ORDER BY total_exec_time DESC LIMIT ?")) {
            ps.setInt(1, limit);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String query = rs.getString(4);
                    out.append(String.format(Locale.ROOT, "  %8d calls  mean %.3f ms  total %.0f ms  %s%n",
                            rs.getLong(1), rs.getDouble(2), rs.getDouble(3),
                            query.length() > 110 ? query.substring(0, 110) + "..." : query));
                }
            }
        }
        return out.toString();
    }

    /** Resident set size of the application process, now and at its peak (kB, from /proc). */
    long[] rssKb() throws IOException {
        long now = 0;
        long peak = 0;
        for (String line : Files.readAllLines(Path.of("/proc", String.valueOf(process.pid()), "status"))) {
            if (line.startsWith("VmRSS:")) {
                now = Long.parseLong(line.replaceAll("\\D", ""));
            } else if (line.startsWith("VmHWM:")) {
                peak = Long.parseLong(line.replaceAll("\\D", ""));
            }
        }
        return new long[] {now, peak};
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        process.waitFor();
        if (debian != null) {
            debian.close();
        } else {
            postgres.close();
        }
    }
}
