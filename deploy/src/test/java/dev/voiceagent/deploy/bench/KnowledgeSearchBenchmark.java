package dev.voiceagent.deploy.bench;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
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
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Benchmark (not a test): POST /api/v1/knowledge-base/search over 10,000 chunks of one organization, against the
 * packaged application and a fresh embedded PostgreSQL.
 *
 * <p>Seeds 100 completed documents of 100 chunks each (about 120 words from a 2,000-word vocabulary, and a
 * 1,536-dimension embedding), then times searches one after another: full text (the organization without an
 * embeddings model), then hybrid (with an OpenAI-compatible embeddings model served by a local stand-in that
 * embeds a text as a hashed bag of words, as the chunks were). Prints p50, p90, p99 per mode.
 *
 * <p>Run: {@code ./mvnw -B -Pbench -DskipTests verify}. Knobs: bench.chunks (10000), bench.searches (300),
 * bench.hybrid-searches (40), bench.postgres=debian (Debian's PostgreSQL 15 with pgvector, installed by
 * .ci/install-pgvector: hybrid search on the HNSW index).
 */
public final class KnowledgeSearchBenchmark {

    static final int DIMENSIONS = 1536;
    private static final Pattern WORD = Pattern.compile("[a-z]+");

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(args.length > 0 ? args[0] : "deploy/target/quarkus-app/quarkus-run.jar").toAbsolutePath();
        int chunks = Integer.getInteger("bench.chunks", 10_000);
        int searches = Integer.getInteger("bench.searches", 300);
        // an exact cosine over every chunk costs about a second at 10,000 x 1,536: fewer hybrid searches there
        boolean pgvector = "debian".equals(System.getProperty("bench.postgres"));
        int hybridSearches = Integer.getInteger("bench.hybrid-searches", pgvector ? searches : 40);
        List<String> vocabulary = vocabulary(2_000);
        HttpServer embeddings = embeddingsServer();
        // the installation's OpenAI address points at the stand-in (as an OpenAI-compatible gateway would)
        try (BenchApp app = new BenchApp(jar, Map.of("VOICEAGENT_MODELS_OPENAI_BASE_URL", "http://127.0.0.1:"
                + embeddings.getAddress().getPort() + "/v1"))) {
            app.signUp();
            long started = System.nanoTime();
            seed(app, vocabulary, chunks);
            System.out.printf(Locale.ROOT, "Seeded %d chunks (%d dimensions) in %.1f s%n", chunks, DIMENSIONS,
                    (System.nanoTime() - started) / 1e9);
            Random random = new Random(7);
            String fullText = measure(app, "full text", vocabulary, random, searches);
            app.put("/api/v1/organizations/model-configurations/v2", "{\"version\": 2, \"mode\": \"byok\", \"byok\":"
                    + " {\"mode\": \"pipeline\", \"pipeline\": {\"llm\": {\"provider\": \"simulator\"}, \"tts\":"
                    + " {\"provider\": \"deepgram\", \"api_key\": \"dg\"}, \"stt\": {\"provider\": \"deepgram\","
                    + " \"api_key\": \"dg\"}, \"embeddings\": {\"provider\": \"openai\", \"api_key\": \"sk-bench\","
                    + " \"model\": \"text-embedding-3-small\"}}}}");
            String hybrid = measure(app, "hybrid", vocabulary, random, hybridSearches);
            if (pgvector) {
                Thread.sleep(1_500); // index statistics reach the shared counters within a second
                try (Connection c = app.sql(); ResultSet rs = c.createStatement().executeQuery("SELECT coalesce(sum("
                        + "idx_scan), 0) FROM pg_stat_user_indexes WHERE indexrelname = 'knowledge_chunks_hnsw_"
                        + DIMENSIONS + "_idx'")) {
                    rs.next();
                    hybrid += String.format(Locale.ROOT, "%n  (the HNSW index was scanned %d times)", rs.getLong(1));
                }
            }
            String report = String.format(Locale.ROOT, "Knowledge search over %d chunks (one organization, %s):%n%s%n%s",
                    chunks, pgvector ? "pgvector HNSW on Debian's PostgreSQL 15" : "exact cosine on the embedded"
                            + " PostgreSQL", fullText, hybrid);
            System.out.println(report);
            Path out = Path.of(jar.getParent().getParent().toString(), "bench-knowledge-search.txt");
            Files.writeString(out, report + System.lineSeparator());
            System.out.println("Written to " + out);
        } finally {
            embeddings.stop(0);
        }
    }

    private static String measure(BenchApp app, String mode, List<String> vocabulary, Random random, int searches)
            throws Exception {
        for (int i = 0; i < Math.min(20, searches / 4); i++) { // warm-up
            search(app, vocabulary, random);
        }
        long[] nanos = new long[searches];
        int found = 0;
        for (int i = 0; i < searches; i++) {
            long t = System.nanoTime();
            String body = search(app, vocabulary, random);
            nanos[i] = System.nanoTime() - t;
            if (!body.contains("\"chunks\":[]")) {
                found++;
            }
            if (i == 0 && !body.contains("\"search_mode\":\"" + mode.replace(' ', '_') + "\"")) {
                throw new IllegalStateException("expected " + mode + " search: " + body.substring(0, Math.min(300,
                        body.length())));
            }
        }
        Arrays.sort(nanos);
        return String.format(Locale.ROOT, "  %-9s %d searches, %d with results | p50 %.1f ms | p90 %.1f ms | p99 %.1f ms",
                mode, searches, found, ms(nanos, 50), ms(nanos, 90), ms(nanos, 99));
    }

    private static String search(BenchApp app, List<String> vocabulary, Random random) throws Exception {
        String query = vocabulary.get(random.nextInt(vocabulary.size())) + " " + vocabulary.get(random.nextInt(200));
        HttpRequest request = HttpRequest.newBuilder(URI.create(app.base + "/api/v1/knowledge-base/search"))
                .header("Content-Type", "application/json").header("X-API-Key", app.apiKey)
                .POST(HttpRequest.BodyPublishers.ofString("{\"query\": \"" + query + "\", \"limit\": 5}")).build();
        HttpResponse<String> response = app.http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IllegalStateException("search -> " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    private static double ms(long[] sorted, double p) {
        int index = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, index))] / 1e6;
    }

    /** Pronounceable made-up words; the first ones are used more often (a Zipf-like skew). */
    static List<String> vocabulary(int size) {
        Random random = new Random(42);
        String consonants = "bcdfghklmnprstvz";
        String vowels = "aeiou";
        List<String> out = new ArrayList<>();
        while (out.size() < size) {
            StringBuilder w = new StringBuilder();
            for (int s = 0; s < 2 + random.nextInt(2); s++) {
                w.append(consonants.charAt(random.nextInt(consonants.length())))
                        .append(vowels.charAt(random.nextInt(vowels.length())));
            }
            if (!out.contains(w.toString())) {
                out.add(w.toString());
            }
        }
        return out;
    }

    /** A hashed bag of words, normalized: what the stand-in embeddings server answers for a text. */
    static float[] embed(String text) {
        float[] v = new float[DIMENSIONS];
        Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
        while (m.find()) {
            v[Math.floorMod(m.group().hashCode(), DIMENSIONS)] += 1;
        }
        double norm = 0;
        for (float f : v) {
            norm += f * f;
        }
        norm = Math.sqrt(norm);
        for (int i = 0; i < v.length && norm > 0; i++) {
            v[i] /= (float) norm;
        }
        return v;
    }

    private static HttpServer embeddingsServer() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        // daemon threads: the stand-in must not keep the benchmark's JVM alive once its figures are written
        server.setExecutor(Executors.newFixedThreadPool(4, r -> {
            Thread thread = new Thread(r, "embeddings-stand-in");
            thread.setDaemon(true);
            return thread;
        }));
        server.createContext("/v1/embeddings", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Matcher input = Pattern.compile("\"input\"\\s*:\\s*\\[\\s*\"((?:[^\"\\\\]|\\\\.)*)\"").matcher(body);
            String text = input.find() ? input.group(1) : "";
            float[] v = embed(text);
            StringBuilder out = new StringBuilder("{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"index\":0,"
                    + "\"embedding\":[");
            for (int i = 0; i < v.length; i++) {
                out.append(i == 0 ? "" : ",").append(v[i]);
            }
            out.append("]}]}");
            byte[] bytes = out.toString().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return server;
    }

    private static void seed(BenchApp app, List<String> vocabulary, int chunks) throws Exception {
        Random random = new Random(1);
        try (Connection c = app.sql()) {
            long org;
            long user;
            try (ResultSet rs = c.createStatement().executeQuery("SELECT selected_organization_id, id FROM users LIMIT 1")) {
                rs.next();
                org = rs.getLong(1);
                user = rs.getLong(2);
            }
            c.setAutoCommit(false);
            int perDocument = 100;
            try (PreparedStatement doc = c.prepareStatement("INSERT INTO knowledge_documents (organization_id, uuid,"
                    + " filename, storage_key, file_size_bytes, file_hash, mime_type, status, total_chunks, retrieval_mode,"
                    + " created_by, created_at, updated_at, submitted_at) VALUES (?, gen_random_uuid()::text, ?, ?, 0,"
                    + " md5(random()::text), 'text/plain', 'completed', ?, 'chunked', ?, now(), now(), now())"
                    + " RETURNING id");
                    PreparedStatement chunk = c.prepareStatement("INSERT INTO knowledge_chunks (organization_id,"
                            + " document_id, chunk_index, chunk_text, contextualized_text, embedding, embedding_norm)"
                            + " VALUES (?, ?, ?, ?, ?, ?, 1)")) {
                for (int d = 0; d < (chunks + perDocument - 1) / perDocument; d++) {
                    doc.setLong(1, org);
                    doc.setString(2, "doc-" + d + ".txt");
                    doc.setString(3, "knowledge_base/" + org + "/bench/doc-" + d + ".txt");
                    doc.setInt(4, perDocument);
                    doc.setLong(5, user);
                    long documentId;
                    try (ResultSet rs = doc.executeQuery()) {
                        rs.next();
                        documentId = rs.getLong(1);
                    }
                    for (int i = 0; i < perDocument && d * perDocument + i < chunks; i++) {
                        StringBuilder text = new StringBuilder();
                        for (int w = 0; w < 120; w++) {
                            // skewed: low indexes are common words
                            int index = (int) Math.min(vocabulary.size() - 1, Math.abs(random.nextGaussian()) * 400);
                            text.append(w == 0 ? "" : " ").append(vocabulary.get(index));
                        }
                        float[] v = embed(text.toString());
                        Float[] boxed = new Float[v.length];
                        for (int k = 0; k < v.length; k++) {
                            boxed[k] = v[k];
                        }
                        chunk.setLong(1, org);
                        chunk.setLong(2, documentId);
                        chunk.setInt(3, i);
                        chunk.setString(4, text.toString());
                        chunk.setString(5, "Section " + d + "\n\n" + text);
                        chunk.setArray(6, c.createArrayOf("float4", boxed));
                        chunk.addBatch();
                    }
                    chunk.executeBatch();
                    if (d % 20 == 19) {
                        c.commit();
                        System.out.printf(Locale.ROOT, "  seeded %d chunks%n", (d + 1) * perDocument);
                    }
                }
                c.commit();
            }
            c.createStatement().execute("ANALYZE knowledge_chunks");
            c.commit();
        }
    }
}
