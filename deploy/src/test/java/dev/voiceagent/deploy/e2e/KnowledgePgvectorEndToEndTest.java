package dev.voiceagent.deploy.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.postgres.knowledge.PostgresKnowledgeRepository;
import dev.voiceagent.application.knowledge.KnowledgeRepository.Found;
import dev.voiceagent.deploy.support.Api;
import dev.voiceagent.deploy.support.FakeModelProviders;
import dev.voiceagent.deploy.support.PgvectorPostgresResource;
import io.agroal.api.AgroalDataSource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

/**
 * Knowledge search on Debian's PostgreSQL 15 with pgvector (installed by .ci/install-pgvector; skipped where it is
 * not, unless VOICEAGENT_TEST_PGVECTOR=required as in CI): V35 gives chunks their embedding as a vector with an HNSW
 * cosine index per common dimension, and vector search orders by {@code <=>} on it, iteratively past the filters.
 * KnowledgeBaseEndToEndTest runs the same API on the embedded server without the extension (the exact cosine).
 */
@QuarkusTest
@EnabledIf("dev.voiceagent.deploy.support.DebianPostgresCluster#withPgvector")
@WithTestResource(PgvectorPostgresResource.class)
@WithTestResource(FakeModelProviders.class)
public class KnowledgePgvectorEndToEndTest {

    private static final int DIMENSIONS = 384;

    @Inject
    PostgresKnowledgeRepository repository;

    @Inject
    AgroalDataSource dataSource;

    private String key;
    private String otherKey;

    @BeforeEach
    void organizations() {
        FakeModelProviders.reset();
        FakeModelProviders.dimensions = DIMENSIONS;
        key = Api.createKey(Api.signUp("pgv"), "k");
        otherKey = Api.createKey(Api.signUp("pgv-other"), "k");
        for (String k : List.of(key, otherKey)) {
            given().header("X-API-Key", k).contentType(ContentType.JSON).body(Map.of("version", 2, "mode", "byok",
                            "byok", Map.of("mode", "pipeline", "pipeline", Map.of("llm", Map.of("provider", "simulator"),
                                    "tts", Map.of("provider", "deepgram", "api_key", "dg"),
                                    "stt", Map.of("provider", "deepgram", "api_key", "dg"),
                                    "embeddings", Map.of("provider", "openai", "api_key", "sk-embed",
                                            "model", "text-embedding-3-small")))))
                    .put("/api/v1/organizations/model-configurations/v2").then().statusCode(200);
        }
    }

    @Test
    void vectorSearchRunsOnTheHnswIndexOfItsDimensionWithinTheOrganization() throws Exception {
        assertThat(repository.usesPgvector()).isTrue();
        String handbook = KnowledgeBaseEndToEndTest.add(key, "handbook.md", "text/markdown",
                KnowledgeBaseEndToEndTest.HANDBOOK.getBytes(StandardCharsets.UTF_8), "chunked");
        // the other organization has the very sentence: nearer than anything, and never to be found by the first
        String theirs = KnowledgeBaseEndToEndTest.add(otherKey, "theirs.md", "text/markdown",
                "Free parking behind the clinic.".getBytes(StandardCharsets.UTF_8), "chunked");
        assertThat(KnowledgeBaseEndToEndTest.settled(key, handbook).getString("processing_status")).isEqualTo("completed");
        assertThat(KnowledgeBaseEndToEndTest.settled(otherKey, theirs).getString("processing_status"))
                .isEqualTo("completed");
        long organization = organizationOf(handbook);
        // enough chunks in the organization that the planner walks the index rather than sorting them all
        String noise = seedNoise(organization, 3_000);
        try (Connection c = dataSource.getConnection()) {
            c.createStatement().execute("ANALYZE knowledge_chunks");
            assertThat(count(c, "SELECT count(*) FROM knowledge_chunks WHERE embedding_vector IS NOT NULL"))
                    .as("every embedding has its vector").isEqualTo(count(c,
                            "SELECT count(*) FROM knowledge_chunks WHERE embedding IS NOT NULL"));
        }
        long scansBefore = indexScans();

        JsonPath found = given().header("X-API-Key", key).contentType(ContentType.JSON)
                .body(Map.of("query", "free parking behind the clinic", "limit", 3))
                .post("/api/v1/knowledge-base/search").then().statusCode(200).extract().jsonPath();
        assertThat(found.getString("search_mode")).isEqualTo("hybrid");
        assertThat(found.getString("chunks[0].chunk_text")).startsWith("Free parking is available");
        assertThat(found.getString("chunks[0].document_uuid")).isEqualTo(handbook);
        // pgvector's cosine distance gives the same similarity as the cosine of the two bags of words (the chunk was
        // embedded with its headings)
        assertThat(found.getDouble("chunks[0].similarity")).isCloseTo(cosine("free parking behind the clinic",
                        found.getString("chunks[0].contextualized_text")),
                org.assertj.core.api.Assertions.within(1e-4));
        assertThat(found.getList("chunks.document_uuid")).doesNotContain(theirs);
        awaitIndexScanAfter(scansBefore);

        // vector search alone: nearest first, among the nearest by the exact cosine (HNSW is approximate: within the
        // exact top 20, ties included), only the organization's chunks
        float[] query = floats(FakeModelProviders.vector("crown filling appointment insurance", DIMENSIONS));
        List<Found> nearest = repository.searchVector(organization, query, null, 10).await()
                .atMost(Duration.ofSeconds(10));
        List<Double> exact = exactSimilarities(organization, query, 20);
        assertThat(nearest).hasSize(10);
        assertThat(nearest).extracting(Found::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        // the first found is among the exact nearest few (not always the nearest: one CI run out of seven found the
        // exact second first)
        assertThat(nearest.getFirst().score()).isGreaterThanOrEqualTo(exact.get(4) - 1e-5);
        assertThat(nearest).extracting(Found::score).allSatisfy(score -> assertThat(score)
                .isGreaterThanOrEqualTo(exact.getLast() - 1e-5));
        assertThat(nearest).extracting(Found::documentUuid).doesNotContain(theirs);
        float[] parking = floats(FakeModelProviders.vector("free parking behind the clinic", DIMENSIONS));

        // a filter few chunks pass: the index scan goes on past ef_search until the limit is met (iterative scan)
        List<Found> inHandbook = repository.searchVector(organization, parking, List.of(handbook), 3).await()
                .atMost(Duration.ofSeconds(10));
        assertThat(inHandbook).extracting(Found::documentUuid).containsOnly(handbook).hasSize(3);
        assertThat(repository.searchVector(organization, query, List.of(noise), 50).await()
                .atMost(Duration.ofSeconds(10))).hasSize(50).extracting(Found::documentUuid).containsOnly(noise);

        // a dimension without an index of its own is still searched, exactly
        assertThat(repository.searchVector(organization, new float[] {1, 0, 0}, null, 5).await()
                .atMost(Duration.ofSeconds(10))).isEmpty();
    }

    private long organizationOf(String documentUuid) throws SQLException {
        try (Connection c = dataSource.getConnection();
                PreparedStatement ps = c.prepareStatement("SELECT organization_id FROM knowledge_documents WHERE uuid = ?")) {
            ps.setString(1, documentUuid);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    /** A completed document of made-up sentences with random embeddings; returns its uuid. */
    private String seedNoise(long organization, int chunks) throws SQLException {
        Random random = new Random(3);
        String[] words = {"invoice", "molar", "crown", "schedule", "insurance", "whitening", "braces", "x-ray",
                "appointment", "hygiene", "floss", "enamel", "cavity", "filling", "gum", "implant", "retainer",
                "sedation", "referral", "copay", "deductible", "orthodontist", "pediatric", "emergency"};
        try (Connection c = dataSource.getConnection()) {
            c.setAutoCommit(false);
            String uuid = UUID.randomUUID().toString();
            long document;
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO knowledge_documents (organization_id, uuid,"
                    + " filename, storage_key, file_size_bytes, file_hash, mime_type, status, total_chunks,"
                    + " retrieval_mode, created_by, created_at, updated_at, submitted_at) SELECT organization_id, ?,"
                    + " 'noise.txt', 'noise', 0, 'noise', 'text/plain', 'completed', ?, 'chunked', created_by, now(),"
                    + " now(), now() FROM knowledge_documents WHERE organization_id = ? LIMIT 1 RETURNING id")) {
                ps.setString(1, uuid);
                ps.setInt(2, chunks);
                ps.setLong(3, organization);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    document = rs.getLong(1);
                }
            }
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO knowledge_chunks (organization_id, document_id,"
                    + " chunk_index, chunk_text, embedding, embedding_norm) VALUES (?, ?, ?, ?, ?, ?)")) {
                for (int i = 0; i < chunks; i++) {
                    StringBuilder text = new StringBuilder();
                    for (int w = 0; w < 12; w++) {
                        text.append(w == 0 ? "" : " ").append(words[random.nextInt(words.length)]);
                    }
                    // dense, as real embeddings are (sparse bags of words orthogonal to a query leave HNSW's greedy
                    // walk on a plateau of equal distances)
                    float[] v = new float[DIMENSIONS];
                    for (int k = 0; k < v.length; k++) {
                        v[k] = (float) random.nextGaussian();
                    }
                    Float[] boxed = new Float[v.length];
                    double norm = 0;
                    for (int k = 0; k < v.length; k++) {
                        boxed[k] = v[k];
                        norm += v[k] * v[k];
                    }
                    ps.setLong(1, organization);
                    ps.setLong(2, document);
                    ps.setInt(3, i);
                    ps.setString(4, text.toString());
                    ps.setArray(5, c.createArrayOf("float4", boxed));
                    ps.setFloat(6, (float) Math.sqrt(norm));
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
            return uuid;
        }
    }

    /** The best similarities by the exact cosine over real[] (what installations without pgvector run). */
    private List<Double> exactSimilarities(long organization, float[] query, int limit) throws SQLException {
        double norm = 0;
        for (float f : query) {
            norm += f * f;
        }
        try (Connection c = dataSource.getConnection(); PreparedStatement ps = c.prepareStatement(
                "SELECT (SELECT sum(a * b) FROM unnest(c.embedding, ?::real[]) t(a, b)) / (c.embedding_norm * "
                        + Math.sqrt(norm) + ") AS s FROM knowledge_chunks c WHERE c.organization_id = ?"
                        + " AND cardinality(c.embedding) = ? ORDER BY s DESC LIMIT ?")) {
            Float[] boxed = new Float[query.length];
            for (int i = 0; i < query.length; i++) {
                boxed[i] = query[i];
            }
            ps.setArray(1, c.createArrayOf("float4", boxed));
            ps.setLong(2, organization);
            ps.setInt(3, query.length);
            ps.setInt(4, limit);
            List<Double> similarities = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    similarities.add(rs.getDouble(1));
                }
            }
            return similarities;
        }
    }

    private long indexScans() throws SQLException {
        try (Connection c = dataSource.getConnection()) {
            return count(c, "SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes"
                    + " WHERE indexrelname = 'knowledge_chunks_hnsw_" + DIMENSIONS + "_idx'");
        }
    }

    /** Index statistics reach the shared counters within a second or so of the statement. */
    private void awaitIndexScanAfter(long before) throws Exception {
        Instant deadline = Instant.now().plusSeconds(10);
        while (indexScans() <= before) {
            assertThat(Instant.now()).as("the search did not use the HNSW index").isBefore(deadline);
            Thread.sleep(200);
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (ResultSet rs = c.createStatement().executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    private static float[] floats(List<Object> values) {
        float[] out = new float[values.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = ((Number) values.get(i)).floatValue();
        }
        return out;
    }

    private static double cosine(String a, String b) {
        float[] x = floats(FakeModelProviders.vector(a, DIMENSIONS));
        float[] y = floats(FakeModelProviders.vector(b, DIMENSIONS));
        double dot = 0;
        double nx = 0;
        double ny = 0;
        for (int i = 0; i < x.length; i++) {
            dot += x[i] * y[i];
            nx += x[i] * x[i];
            ny += y[i] * y[i];
        }
        return dot / Math.sqrt(nx * ny);
    }
}
