package dev.voiceagent.application.knowledge;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.knowledge.KnowledgeRepository.Found;
import dev.voiceagent.application.knowledge.KnowledgeUseCases.KnowledgeBaseUseCase;
import dev.voiceagent.application.knowledge.KnowledgeUseCases.SearchHit;
import dev.voiceagent.application.knowledge.KnowledgeUseCases.SearchResult;
import dev.voiceagent.application.knowledge.KnowledgeUseCases.Upload;
import dev.voiceagent.application.model.ModelConfigurations;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.domain.knowledge.DocumentFormat;
import dev.voiceagent.domain.knowledge.KnowledgeDocument;
import dev.voiceagent.domain.knowledge.KnowledgeDocument.RetrievalMode;
import dev.voiceagent.domain.knowledge.KnowledgeDocument.Status;
import dev.voiceagent.domain.knowledge.RankFusion;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.storage.ObjectKeys;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The knowledge base's requests. Search ranks by PostgreSQL full-text search always; with an embeddings model
 * in the organization's configuration it also ranks by the cosine similarity of the query's embedding and fuses
 * both rankings by reciprocal rank (hybrid).
 */
public class KnowledgeService implements KnowledgeBaseUseCase {

    static final Duration UPLOAD_TTL = Duration.ofMinutes(30);
    static final String NOT_FOUND = "Document not found";

    private final KnowledgeRepository documents;
    private final ObjectStore store;
    private final ModelConfigurations models;
    private final Embeddings embeddings;
    private final Clock clock;
    private final long maxBytes;

    public KnowledgeService(KnowledgeRepository documents, ObjectStore store, ModelConfigurations models,
            Embeddings embeddings, Clock clock, long maxBytes) {
        this.documents = documents;
        this.store = store;
        this.models = models;
        this.embeddings = embeddings;
        this.clock = clock;
        this.maxBytes = maxBytes;
    }

    @Override
    public Uni<Upload> uploadUrl(Principal principal, String filename, String mimeType,
            Map<String, Object> customMetadata) {
        DocumentFormat format = DocumentFormat.of(filename, mimeType);
        long org = principal.organizationId();
        String uuid = UUID.randomUUID().toString();
        String key = ObjectKeys.knowledgeDocument(org, uuid, filename);
        Instant now = clock.instant();
        String type = mimeType == null || mimeType.isBlank() ? format.mimeType() : mimeType.strip();
        KnowledgeDocument document = new KnowledgeDocument(null, org, uuid, filename.strip(), 0, "", type,
                Status.PENDING, null, 0, RetrievalMode.CHUNKED, customMetadata, Map.of(), key, now, now,
                principal.userId(), true, false);
        return documents.insert(document).chain(saved -> store.signedUploadUrl(key, type, maxBytes, UPLOAD_TTL))
                .map(url -> new Upload(url, uuid, key));
    }

    @Override
    public Uni<KnowledgeDocument> process(Principal principal, String documentUuid, String storageKey,
            String retrievalMode) {
        RetrievalMode mode = RetrievalMode.byWireName(retrievalMode);
        long org = principal.organizationId();
        return documents.find(org, documentUuid)
                .map(found -> found.filter(KnowledgeDocument::active)
                        .orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)))
                .chain(document -> {
                    if (!document.storageKey().equals(storageKey)) {
                        throw new DomainRuleViolation("s3_key is not this document's upload (" + document.storageKey()
                                + ")");
                    }
                    if (document.submitted() && document.status() != Status.FAILED) {
                        return Uni.createFrom().item(document); // asked again: already on its way
                    }
                    return store.metadata(storageKey).chain(meta -> {
                        if (meta.isEmpty()) {
                            throw new DomainRuleViolation("Nothing was uploaded at " + storageKey);
                        }
                        return documents.submit(submitted(document, mode, meta.get().size()));
                    });
                });
    }

    private KnowledgeDocument submitted(KnowledgeDocument d, RetrievalMode mode, long size) {
        return new KnowledgeDocument(d.id(), d.organizationId(), d.uuid(), d.filename(), size, d.fileHash(),
                d.mimeType(), Status.PENDING, null, 0, mode, d.customMetadata(), d.extractionMetadata(),
                d.storageKey(), d.createdAt(), clock.instant(), d.createdBy(), true, true);
    }

    @Override
    public Uni<KnowledgeRepository.Page> list(Principal principal, Status status, int limit, int offset) {
        return documents.list(principal.organizationId(), status, limit, offset);
    }

    @Override
    public Uni<KnowledgeDocument> get(Principal principal, String documentUuid) {
        return documents.find(principal.organizationId(), documentUuid)
                .map(found -> found.filter(d -> d.active() && d.submitted())
                        .orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)));
    }

    @Override
    public Uni<Void> delete(Principal principal, String documentUuid) {
        return documents.deactivate(principal.organizationId(), documentUuid).map(done -> {
            if (!done) {
                throw new ResourceNotFoundException(NOT_FOUND);
            }
            return null;
        });
    }

    @Override
    public Uni<SearchResult> search(Principal principal, String query, int limit, List<String> documentUuids,
            Double minSimilarity) {
        if (query == null || query.isBlank()) {
            throw new DomainRuleViolation("query must not be blank");
        }
        long org = principal.organizationId();
        String q = query.strip();
        int depth = Math.max(limit * 4, 20);
        Uni<List<Found>> text = documents.searchText(org, q, documentUuids, depth);
        return models.resolve(org, principal.userId()).chain(resolved -> {
            Optional<ModelEndpoint> endpoint = resolved.endpoint(ModelService.EMBEDDINGS);
            if (endpoint.isEmpty()) {
                return text.map(found -> result(q, "full_text", found.stream()
                        .map(f -> hit(f, f.score() / (1 + f.score()))).toList(), limit, minSimilarity));
            }
            return embeddings.embed(endpoint.get(), List.of(q)).chain(vectors -> documents.searchVector(org,
                    vectors.getFirst(), documentUuids, depth)).chain(byVector -> text.map(byText -> {
                Map<Long, Found> vector = new LinkedHashMap<>();
                byVector.forEach(f -> vector.put(f.id(), f));
                Map<Long, Found> all = new LinkedHashMap<>();
                byText.forEach(f -> all.put(f.id(), f));
                byVector.forEach(f -> all.putIfAbsent(f.id(), f));
                List<Long> fused = RankFusion.fuse(List.of(byVector.stream().map(Found::id).toList(),
                        byText.stream().map(Found::id).toList()), depth);
                List<SearchHit> hits = new ArrayList<>();
                for (Long id : fused) {
                    Found f = all.get(id);
                    // similarity is the cosine when the chunk has an embedding; a text-only match keeps its rank
                    hits.add(hit(f, vector.containsKey(id) ? vector.get(id).score() : f.score() / (1 + f.score())));
                }
                return result(q, "hybrid", hits, limit, minSimilarity);
            }));
        });
    }

    private static SearchResult result(String query, String mode, List<SearchHit> hits, int limit,
            Double minSimilarity) {
        List<SearchHit> kept = hits.stream().filter(h -> minSimilarity == null || h.similarity() >= minSimilarity)
                .limit(limit).toList();
        return new SearchResult(kept, query, mode);
    }

    private static SearchHit hit(Found f, double similarity) {
        return new SearchHit(f.id(), f.documentId(), f.chunkText(), f.contextualizedText(), f.chunkIndex(),
                f.chunkMetadata(), f.filename(), f.documentUuid(), Math.round(similarity * 1e6) / 1e6);
    }
}
