package dev.voiceagent.application.knowledge;

import dev.voiceagent.domain.knowledge.Chunker.Chunk;
import dev.voiceagent.domain.knowledge.KnowledgeDocument;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Out-port: an organization's knowledge documents, their chunks, and search over them. */
public interface KnowledgeRepository {

    /** A page of documents and how many match. */
    record Page(List<KnowledgeDocument> documents, long total) {
    }

    /** A chunk found, with its document's name and uuid and its score in that ranking. */
    record Found(long id, long documentId, String chunkText, String contextualizedText, int chunkIndex,
            Map<String, Object> chunkMetadata, String filename, String documentUuid, double score) {
    }

    /** A chunk to store, with its embedding (null without an embeddings model). */
    record StoredChunk(Chunk chunk, float[] embedding) {
    }

    Uni<KnowledgeDocument> insert(KnowledgeDocument document);

    /** Submits the document for processing: pending, its retrieval mode and size, error and chunks cleared. */
    Uni<KnowledgeDocument> submit(KnowledgeDocument document);

    /** The document whatever its state (submitted or not, active or not). */
    Uni<Optional<KnowledgeDocument>> find(long organizationId, String uuid);

    /** Active submitted documents, newest first, with the total (one statement). */
    Uni<Page> list(long organizationId, KnowledgeDocument.Status status, int limit, int offset);

    /** Marks the document inactive; its chunks are no longer found. */
    Uni<Boolean> deactivate(long organizationId, String uuid);

    /**
     * Claims the oldest pending document (or one whose lease ran out) for {@code owner}: processing, the lease
     * until now + {@code lease}, one more attempt. Empty when there is none.
     */
    Uni<Optional<KnowledgeDocument>> claim(String owner, Duration lease);

    /** Deletes the rows of upload URLs never submitted, created before now - {@code olderThan}; how many. */
    Uni<Integer> deleteUnsubmitted(Duration olderThan);

    /** Whether another active completed document of the organization has this hash (its filename, if so). */
    Uni<Optional<String>> duplicateOf(long organizationId, String fileHash, long exceptId);

    /**
     * Stores the chunks and completes the document in one transaction, if {@code owner} still holds its lease
     * (false otherwise: another replica took it over and nothing is written).
     */
    Uni<Boolean> complete(KnowledgeDocument document, String owner, List<StoredChunk> chunks, long sizeBytes,
            String fileHash, Map<String, Object> extractionMetadata);

    /** Fails the document with the reason, if {@code owner} still holds its lease. */
    Uni<Boolean> fail(KnowledgeDocument document, String owner, String reason, long sizeBytes, String fileHash);

    /** Full-text ranking (websearch_to_tsquery, ts_rank_cd), best first; documents null for all. */
    Uni<List<Found>> searchText(long organizationId, String query, List<String> documentUuids, int limit);

    /** Cosine similarity to the query's embedding among chunks with embeddings of its size, best first. */
    Uni<List<Found>> searchVector(long organizationId, float[] query, List<String> documentUuids, int limit);
}
