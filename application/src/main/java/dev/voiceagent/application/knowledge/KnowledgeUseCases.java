package dev.voiceagent.application.knowledge;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.knowledge.KnowledgeDocument;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The knowledge base: upload, process, list, read, delete, search. */
public final class KnowledgeUseCases {

    private KnowledgeUseCases() {
    }

    public record Upload(String uploadUrl, String documentUuid, String storageKey) {
    }

    /** A chunk as search answers it; similarity in 0..1 (cosine, else the normalized text rank). */
    public record SearchHit(long id, long documentId, String chunkText, String contextualizedText, int chunkIndex,
            Map<String, Object> chunkMetadata, String filename, String documentUuid, double similarity) {
    }

    public record SearchResult(List<SearchHit> chunks, String query, String mode) {
    }

    public interface KnowledgeBaseUseCase {
        Uni<Upload> uploadUrl(Principal principal, String filename, String mimeType, Map<String, Object> customMetadata);

        Uni<KnowledgeDocument> process(Principal principal, String documentUuid, String storageKey,
                String retrievalMode);

        Uni<KnowledgeRepository.Page> list(Principal principal, KnowledgeDocument.Status status, int limit, int offset);

        Uni<KnowledgeDocument> get(Principal principal, String documentUuid);

        Uni<Void> delete(Principal principal, String documentUuid);

        Uni<SearchResult> search(Principal principal, String query, int limit, List<String> documentUuids,
                Double minSimilarity);
    }

    public interface ProcessDocumentsUseCase {
        /** Processes the next document waiting, if any; true when one was processed (completed or failed). */
        Uni<Boolean> processNext();

        /** Forgets upload URLs never submitted (their rows) after {@code olderThan}; how many. */
        Uni<Integer> purgeAbandonedUploads(Duration olderThan);
    }
}
