package dev.voiceagent.adapters.postgres.knowledge;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;

import dev.voiceagent.adapters.postgres.shared.Columns;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.shared.Rows;
import dev.voiceagent.application.knowledge.KnowledgeRepository;
import dev.voiceagent.domain.knowledge.KnowledgeDocument;
import dev.voiceagent.domain.knowledge.KnowledgeDocument.RetrievalMode;
import dev.voiceagent.domain.knowledge.KnowledgeDocument.Status;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jboss.logging.Logger;

/**
 * Documents and chunks. Text search is websearch_to_tsquery over a generated tsvector (GIN). Vector search is
 * pgvector's cosine distance over an HNSW index where the server has the extension (V35's
 * {@code knowledge_vector_setup()}, called again at start: the answer says whether the generated
 * {@code embedding_vector} column is there), else the exact cosine of the real[] embeddings computed in SQL over the
 * organization's chunks (no extension needed).
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresKnowledgeRepository implements KnowledgeRepository {

    private static final Logger LOG = Logger.getLogger(PostgresKnowledgeRepository.class);
    /** The dimensions V35 gives an HNSW index (as vector up to 2,000, beyond as halfvec); others scan exactly. */
    private static final Set<Integer> INDEXED_DIMENSIONS = Set.of(384, 512, 768, 1024, 1536, 3072);
    private static final int VECTOR_INDEX_MAX_DIMENSIONS = 2000;

    private static final String COLUMNS = "id, organization_id, uuid, filename, file_size_bytes, file_hash, mime_type,"
            + " status, processing_error, total_chunks, retrieval_mode, custom_metadata, extraction_metadata,"
            + " storage_key, created_at, updated_at, created_by, is_active, submitted_at IS NOT NULL AS submitted";
    private static final String FOUND = "c.id, c.document_id, c.chunk_text, c.contextualized_text, c.chunk_index,"
            + " c.chunk_metadata, d.filename, d.uuid";

    private static final int CHUNK_ID = index(FOUND, "c.id");
    private static final int DOCUMENT_ID = index(FOUND, "c.document_id");
    private static final int CHUNK_TEXT = index(FOUND, "c.chunk_text");
    private static final int CONTEXTUALIZED_TEXT = index(FOUND, "c.contextualized_text");
    private static final int CHUNK_INDEX = index(FOUND, "c.chunk_index");
    private static final int CHUNK_METADATA = index(FOUND, "c.chunk_metadata");
    private static final int FILENAME = index(FOUND, "d.filename");
    private static final int DOCUMENT_UUID = index(FOUND, "d.uuid");
    private static final int SCORE = Columns.count(FOUND);

    private final Pool pool;
    /** Whether chunks have their embedding as a pgvector column; false until the start-up check says so. */
    private volatile boolean pgvector;

    public PostgresKnowledgeRepository(Pool pool) {
        this.pool = pool;
    }

    /**
     * Detects pgvector at start (and sets it up when the server gained it since the migration); a failure (no such
     * function where migrations did not run, a read-only server) leaves the exact cosine.
     */
    void detectVectorIndex(@Observes StartupEvent started) {
        pool.query("SELECT knowledge_vector_setup()").execute()
                .map(rows -> Boolean.TRUE.equals(rows.iterator().next().getBoolean(0)))
                .onFailure().recoverWithItem(failure -> {
                    LOG.debugf("pgvector check failed (%s): knowledge search uses the exact cosine", failure.getMessage());
                    return false;
                })
                .subscribe().with(found -> {
                    pgvector = found;
                    LOG.debugf("knowledge vector search: %s", found ? "pgvector HNSW" : "exact cosine over real[]");
                });
    }

    /** Whether vector search runs on pgvector (for tests and the start-up log). */
    public boolean usesPgvector() {
        return pgvector;
    }

    @Override
    public Uni<KnowledgeDocument> insert(KnowledgeDocument d) {
        return pool.preparedQuery("""
                        INSERT INTO knowledge_documents (organization_id, uuid, filename, storage_key,
                        mime_type, status, retrieval_mode, custom_metadata, created_by, created_at, updated_at)
                        VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7, $8, $9, $9) RETURNING\s""" + COLUMNS)
                .execute(Tuple.tuple().addLong(d.organizationId()).addString(d.uuid()).addString(d.filename())
                        .addString(d.storageKey()).addString(d.mimeType()).addString(d.retrievalMode().wireName())
                        .addValue(JsonValues.toJson(d.customMetadata())).addLong(d.createdBy())
                        .addOffsetDateTime(d.createdAt().atOffset(ZoneOffset.UTC)))
                .map(rows -> document(rows.iterator().next()));
    }

    @Override
    public Uni<KnowledgeDocument> submit(KnowledgeDocument d) {
        return pool.withTransaction(tx -> tx.preparedQuery("DELETE FROM knowledge_chunks WHERE document_id = $1")
                .execute(Tuple.of(d.id()))
                .chain(() -> tx.preparedQuery("""
                                UPDATE knowledge_documents SET status = 'pending', processing_error = NULL,
                                total_chunks = 0, retrieval_mode = $3, file_size_bytes = $4, updated_at = $5,
                                submitted_at = $5, attempts = 0, lease_owner = NULL, lease_until = NULL
                                WHERE organization_id = $1 AND id = $2 RETURNING\s""" + COLUMNS)
                        .execute(Tuple.of(d.organizationId(), d.id(), d.retrievalMode().wireName(), d.fileSizeBytes(),
                                d.updatedAt().atOffset(ZoneOffset.UTC)))))
                .map(rows -> document(rows.iterator().next()));
    }

    @Override
    public Uni<Optional<KnowledgeDocument>> find(long organizationId, String uuid) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM knowledge_documents WHERE organization_id = $1"
                        + " AND uuid = $2").execute(Tuple.of(organizationId, uuid))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(document(rows.iterator().next())));
    }

    @Override
    public Uni<Page> list(long organizationId, Status status, int limit, int offset) {
        return pool.preparedQuery("SELECT " + COLUMNS + ", count(*) OVER () AS total FROM knowledge_documents"
                        + " WHERE organization_id = $1 AND is_active AND submitted_at IS NOT NULL"
                        + " AND ($2::text IS NULL OR status = $2) ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4")
                .execute(Tuple.of(organizationId, status == null ? null : status.wireName(), limit, offset))
                .chain(rows -> {
                    List<KnowledgeDocument> page = Rows.list(rows, PostgresKnowledgeRepository::document);
                    if (rows.size() > 0) {
                        return Uni.createFrom().item(new Page(page, rows.iterator().next().getLong("total")));
                    }
                    if (offset == 0) {
                        return Uni.createFrom().item(new Page(page, 0));
                    }
                    // past the end: the total still counts
                    return pool.preparedQuery("""
                                    SELECT count(*) AS total FROM knowledge_documents WHERE organization_id = $1
                                    AND is_active AND submitted_at IS NOT NULL AND ($2::text IS NULL OR status = $2)""")
                            .execute(Tuple.of(organizationId, status == null ? null : status.wireName()))
                            .map(count -> new Page(page, count.iterator().next().getLong("total")));
                });
    }

    @Override
    public Uni<Boolean> deactivate(long organizationId, String uuid) {
        return pool.preparedQuery("""
                        UPDATE knowledge_documents SET is_active = false, updated_at = now()
                        WHERE organization_id = $1 AND uuid = $2 AND is_active AND submitted_at IS NOT NULL""")
                .execute(Tuple.of(organizationId, uuid)).map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<Optional<KnowledgeDocument>> claim(String owner, Duration lease) {
        return pool.preparedQuery("""
                        UPDATE knowledge_documents SET status = 'failed', processing_error =
                        'Processing did not finish after ' || attempts || ' attempts', lease_owner = NULL,
                        lease_until = NULL, updated_at = now() WHERE is_active AND submitted_at IS NOT NULL
                        AND status = 'processing' AND lease_until < now() AND attempts >= $1""")
                .execute(Tuple.of(KnowledgeDocument.MAX_ATTEMPTS))
                .chain(() -> pool.preparedQuery("""
                        UPDATE knowledge_documents SET status = 'processing',
                        lease_owner = $1, lease_until = now() + make_interval(secs => $2), attempts = attempts + 1,
                        updated_at = now() WHERE id = (SELECT id FROM knowledge_documents WHERE is_active
                        AND submitted_at IS NOT NULL AND (status = 'pending' OR (status = 'processing'
                        AND lease_until < now())) ORDER BY created_at FOR UPDATE SKIP LOCKED LIMIT 1)
                        RETURNING\s""" + COLUMNS).execute(Tuple.of(owner, (double) lease.toMillis() / 1000)))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(document(rows.iterator().next())));
    }

    @Override
    public Uni<Integer> deleteUnsubmitted(Duration olderThan) {
        return pool.preparedQuery("""
                        DELETE FROM knowledge_documents WHERE submitted_at IS NULL
                        AND created_at < now() - make_interval(secs => $1)""")
                .execute(Tuple.of((double) olderThan.toSeconds())).map(rows -> rows.rowCount());
    }

    @Override
    public Uni<Optional<String>> duplicateOf(long organizationId, String fileHash, long exceptId) {
        return pool.preparedQuery("""
                        SELECT filename FROM knowledge_documents WHERE organization_id = $1
                        AND file_hash = $2 AND is_active AND status = 'completed' AND id <> $3 LIMIT 1""")
                .execute(Tuple.of(organizationId, fileHash, exceptId))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.of(rows.iterator().next().getString("filename")));
    }

    @Override
    public Uni<Boolean> complete(KnowledgeDocument d, String owner, List<StoredChunk> chunks, long sizeBytes,
            String fileHash, Map<String, Object> extractionMetadata) {
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        SELECT id FROM knowledge_documents WHERE id = $1
                        AND lease_owner = $2 AND status = 'processing' FOR UPDATE""").execute(Tuple.of(d.id(), owner))
                .chain(held -> {
                    if (held.size() == 0) {
                        return Uni.createFrom().item(false);
                    }
                    List<Tuple> batch = new ArrayList<>();
                    for (StoredChunk c : chunks) {
                        Float[] vector = c.embedding() == null ? null : boxed(c.embedding());
                        Float norm = c.embedding() == null ? null : (float) norm(c.embedding());
                        batch.add(Tuple.tuple().addLong(d.organizationId()).addLong(d.id())
                                .addInteger(c.chunk().index()).addString(c.chunk().text())
                                .addString(c.chunk().contextualizedText())
                                .addValue(JsonValues.toJson(c.chunk().metadata())).addArrayOfFloat(vector)
                                .addFloat(norm));
                    }
                    Uni<?> inserted = batch.isEmpty() ? Uni.createFrom().voidItem()
                            : tx.preparedQuery("""
                                    INSERT INTO knowledge_chunks (organization_id, document_id, chunk_index,
                                    chunk_text, contextualized_text, chunk_metadata, embedding, embedding_norm)
                                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)""").executeBatch(batch);
                    return tx.preparedQuery("DELETE FROM knowledge_chunks WHERE document_id = $1").execute(Tuple.of(d.id()))
                            .chain(() -> inserted)
                            .chain(() -> tx.preparedQuery("""
                                    UPDATE knowledge_documents SET status = 'completed',
                                    processing_error = NULL, total_chunks = $2, file_size_bytes = $3, file_hash = $4,
                                    extraction_metadata = $5, lease_owner = NULL, lease_until = NULL,
                                    updated_at = now() WHERE id = $1""").execute(Tuple.of(d.id(), chunks.size(),
                                    sizeBytes, fileHash, JsonValues.toJson(extractionMetadata))))
                            .replaceWith(true);
                }));
    }

    @Override
    public Uni<Boolean> fail(KnowledgeDocument d, String owner, String reason, long sizeBytes, String fileHash) {
        return pool.preparedQuery("""
                        UPDATE knowledge_documents SET status = 'failed', processing_error = $3,
                        file_size_bytes = $4, file_hash = $5, lease_owner = NULL, lease_until = NULL,
                        updated_at = now() WHERE id = $1 AND lease_owner = $2 AND status = 'processing'""")
                .execute(Tuple.of(d.id(), owner, reason.length() > 2000 ? reason.substring(0, 2000) : reason,
                        sizeBytes, fileHash == null ? "" : fileHash))
                .map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<List<Found>> searchText(long organizationId, String query, List<String> documentUuids, int limit) {
        return pool.preparedQuery("SELECT " + FOUND + ", ts_rank_cd(c.search, q) AS rank FROM knowledge_chunks c"
                        + " JOIN knowledge_documents d ON d.id = c.document_id,"
                        + " websearch_to_tsquery('english', $2) q WHERE c.organization_id = $1 AND d.is_active"
                        + " AND d.status = 'completed' AND c.search @@ q AND ($3::text[] IS NULL OR d.uuid = ANY($3))"
                        + " ORDER BY rank DESC, c.id LIMIT $4")
                .execute(Tuple.of(organizationId, query, documentUuids == null ? null
                        : documentUuids.toArray(String[]::new), limit))
                .map(rows -> Rows.list(rows, PostgresKnowledgeRepository::found));
    }

    @Override
    public Uni<List<Found>> searchVector(long organizationId, float[] query, List<String> documentUuids, int limit) {
        Float[] vector = boxed(query);
        double norm = norm(query);
        if (norm == 0 || !Double.isFinite(norm)) {
            return Uni.createFrom().item(List.of());
        }
        String[] uuids = documentUuids == null ? null : documentUuids.toArray(String[]::new);
        return pgvector ? searchPgvector(organizationId, vector, uuids, limit)
                : pool.preparedQuery("SELECT " + FOUND + ", (SELECT sum(a * b) FROM unnest(c.embedding, $2::real[])"
                        + " t(a, b)) / (c.embedding_norm * $3) AS similarity FROM knowledge_chunks c"
                        + " JOIN knowledge_documents d ON d.id = c.document_id WHERE c.organization_id = $1"
                        + " AND d.is_active AND d.status = 'completed' AND c.embedding IS NOT NULL AND c.embedding_norm > 0"
                        + " AND cardinality(c.embedding) = $4 AND ($5::text[] IS NULL OR d.uuid = ANY($5))"
                        + " ORDER BY similarity DESC, c.id LIMIT $6")
                .execute(Tuple.tuple().addLong(organizationId).addArrayOfFloat(vector).addDouble(norm)
                        .addInteger(query.length).addArrayOfString(uuids).addInteger(limit))
                .map(rows -> Rows.list(rows, PostgresKnowledgeRepository::found));
    }

    /**
     * The nearest chunks by pgvector's cosine distance. A dimension with an HNSW index (V35) orders by the indexed
     * expression, with the index scan made iterative (pgvector 0.8: it goes on past ef_search until enough chunks
     * pass the organization and document filters; relaxed order, sorted again outside); other dimensions scan
     * exactly, in C.
     */
    private Uni<List<Found>> searchPgvector(long organizationId, Float[] vector, String[] uuids, int limit) {
        int dimensions = vector.length;
        String type = !INDEXED_DIMENSIONS.contains(dimensions) ? "vector"
                : dimensions > VECTOR_INDEX_MAX_DIMENSIONS ? "halfvec(" + dimensions + ")" : "vector(" + dimensions + ")";
        String distance = "c.embedding_vector::" + type + " <=> $2::real[]::" + type;
        // relaxed order (better recall past the filters), put back in exact order outside the CTE
        String sql = "WITH nearest AS MATERIALIZED (SELECT " + FOUND + ", 1 - (" + distance + ") AS similarity"
                + " FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.document_id"
                + " WHERE c.organization_id = $1 AND vector_dims(c.embedding_vector) = " + dimensions
                + " AND d.is_active AND d.status = 'completed' AND ($3::text[] IS NULL OR d.uuid = ANY($3))"
                + " ORDER BY " + distance + " LIMIT $4) SELECT * FROM nearest ORDER BY similarity DESC";
        Tuple args = Tuple.tuple().addLong(organizationId).addArrayOfFloat(vector).addArrayOfString(uuids)
                .addInteger(limit);
        return pool.withTransaction(tx -> tx.query("SET LOCAL hnsw.iterative_scan = relaxed_order;"
                        + " SET LOCAL hnsw.ef_search = " + Math.clamp(limit * 2L, 40, 1000)).execute()
                .chain(() -> tx.preparedQuery(sql).execute(args)))
                .map(rows -> Rows.list(rows, PostgresKnowledgeRepository::found));
    }

    private static Float[] boxed(float[] v) {
        Float[] out = new Float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = v[i];
        }
        return out;
    }

    /** The Euclidean norm (stored with each embedding, so the cosine needs one dot product per chunk). */
    private static double norm(float[] v) {
        double sum = 0;
        for (float f : v) {
            sum += (double) f * f;
        }
        return Math.sqrt(sum);
    }

    /** A found chunk: {@link #FOUND}'s columns, then its score (rank or similarity), read by position. */
    private static Found found(Row r) {
        return new Found(r.getLong(CHUNK_ID), r.getLong(DOCUMENT_ID), r.getString(CHUNK_TEXT),
                r.getString(CONTEXTUALIZED_TEXT), r.getInteger(CHUNK_INDEX), JsonValues.toMap(r.getValue(CHUNK_METADATA)),
                r.getString(FILENAME), r.getString(DOCUMENT_UUID), r.getDouble(SCORE));
    }

    private static KnowledgeDocument document(Row r) {
        return new KnowledgeDocument(r.getLong("id"), r.getLong("organization_id"), r.getString("uuid"),
                r.getString("filename"), r.getLong("file_size_bytes"), r.getString("file_hash"), r.getString("mime_type"),
                Status.byWireName(r.getString("status")).orElseThrow(), r.getString("processing_error"),
                r.getInteger("total_chunks"), RetrievalMode.byWireName(r.getString("retrieval_mode")),
                JsonValues.toMap(r.getValue("custom_metadata")), JsonValues.toMap(r.getValue("extraction_metadata")),
                r.getString("storage_key"), r.getOffsetDateTime("created_at").toInstant(),
                r.getOffsetDateTime("updated_at").toInstant(), r.getLong("created_by"), r.getBoolean("is_active"),
                r.getBoolean("submitted"));
    }
}
