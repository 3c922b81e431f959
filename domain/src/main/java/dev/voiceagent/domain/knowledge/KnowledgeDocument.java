package dev.voiceagent.domain.knowledge;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.Locale;
import java.util.Map;

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

        public static java.util.Optional<Status> byWireName(String name) {
            for (Status s : values()) {
                if (s.wireName().equals(name)) {
                    return java.util.Optional.of(s);
                }
            }
            return java.util.Optional.empty();
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

    /** The prefix of every key of an organization's documents. */
    public static String keyPrefix(long organizationId) {
        return "knowledge_base/" + organizationId + "/";
    }

    /** knowledge_base/{organization}/{uuid}/{filename}, the name kept to safe characters. */
    public static String storageKey(long organizationId, String uuid, String filename) {
        String name = filename == null || filename.isBlank() ? "document" : filename.strip();
        name = name.substring(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1)
                .replaceAll("[^A-Za-z0-9._-]", "_");
        if (name.isEmpty() || name.chars().allMatch(c -> c == '.')) {
            name = "document";
        }
        if (name.length() > 150) {
            name = name.substring(name.length() - 150);
        }
        return keyPrefix(organizationId) + uuid + "/" + name;
    }
}
