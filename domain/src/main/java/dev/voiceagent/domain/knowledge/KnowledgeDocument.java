package dev.voiceagent.domain.knowledge;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A document of an organization's knowledge base: uploaded to the object store, then processed by a tick on any
 * replica (pending -> processing -> completed, or failed with the reason) into chunks that search finds. It exists
 * from its upload URL on; it is {@code submitted} (listed, processed) once process-document asks for it.
 */
public record KnowledgeDocument(Long id, long organizationId, String uuid, String filename, long fileSizeBytes,
        String fileHash, String mimeType, Status status, String processingError, int totalChunks,
        RetrievalMode retrievalMode, Map<String, Object> customMetadata, Map<String, Object> extractionMetadata,
        String storageKey, Instant createdAt, Instant updatedAt, long createdBy, boolean active, boolean submitted) {

    public enum Status {
        PENDING, PROCESSING, COMPLETED, FAILED;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Optional<Status> byWireName(String name) {
            for (Status s : values()) {
                if (s.wireName().equals(name)) {
                    return Optional.of(s);
                }
            }
            return Optional.empty();
        }
    }

    public enum RetrievalMode {
        CHUNKED, FULL_DOCUMENT;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static RetrievalMode byWireName(String name) {
            if (name == null) {
                return CHUNKED;
            }
            for (RetrievalMode m : values()) {
                if (m.wireName().equals(name)) {
                    return m;
                }
            }
            throw new DomainRuleViolation("retrieval_mode must be chunked or full_document");
        }
    }

    /** How many times a document is claimed before it is failed (a replica died processing it each time). */
    public static final int MAX_ATTEMPTS = 3;

    public KnowledgeDocument {
        customMetadata = customMetadata == null ? Map.of() : customMetadata;
        extractionMetadata = extractionMetadata == null ? Map.of() : extractionMetadata;
    }
}
