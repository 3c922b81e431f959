package dev.voiceagent.application.knowledge;

import dev.voiceagent.application.knowledge.KnowledgeRepository.StoredChunk;
import dev.voiceagent.application.knowledge.KnowledgeUseCases.ProcessDocumentsUseCase;
import dev.voiceagent.application.model.ModelConfigurations;
import dev.voiceagent.application.model.ModelEndpoint;
import dev.voiceagent.application.shared.UpstreamServiceException;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.domain.knowledge.Chunker;
import dev.voiceagent.domain.knowledge.Chunker.Chunk;
import dev.voiceagent.domain.knowledge.DocumentFormat;
import dev.voiceagent.domain.knowledge.KnowledgeDocument;
import dev.voiceagent.domain.knowledge.KnowledgeDocument.RetrievalMode;
import dev.voiceagent.domain.model.ModelService;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.io.IOException;
import java.io.InputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * One step of the knowledge base's processing, run by a scheduler tick on any replica: claim the next document under
 * a lease, read it (at most the size limit), refuse a duplicate of a completed document of the organization (by
 * SHA-256), extract its text, chunk it (or keep it whole), embed the chunks when the organization has an
 * embeddings model, and store them, or fail the document with the reason. A replica that dies mid-way leaves the
 * lease to run out; another one takes the document over (at most {@link KnowledgeDocument#MAX_ATTEMPTS} times).
 */
public class ProcessDocumentsService implements ProcessDocumentsUseCase {

    private static final System.Logger LOG = System.getLogger(ProcessDocumentsService.class.getName());

    private final KnowledgeRepository documents;
    private final ObjectStore store;
    private final DocumentText text;
    private final ModelConfigurations models;
    private final Embeddings embeddings;
    private final String owner;
    private final Duration lease;
    private final long maxBytes;

    public ProcessDocumentsService(KnowledgeRepository documents, ObjectStore store, DocumentText text,
            ModelConfigurations models, Embeddings embeddings, String owner, Duration lease, long maxBytes) {
        this.documents = documents;
        this.store = store;
        this.text = text;
        this.models = models;
        this.embeddings = embeddings;
        this.owner = owner;
        this.lease = lease;
        this.maxBytes = maxBytes;
    }

    /** Why a document failed: its reason is stored as it is. */
    static final class Refused extends RuntimeException {
        Refused(String message) {
            super(message, null, false, false);
        }
    }

    private record Read(byte[] bytes, String hash) {
    }

    @Override
    public Uni<Boolean> processNext() {
        return documents.claim(owner, lease).chain(claimed -> {
            if (claimed.isEmpty()) {
                return Uni.createFrom().item(false);
            }
            KnowledgeDocument document = claimed.get();
            long started = System.nanoTime();
            return process(document).onItem().transform(chunks -> {
                LOG.log(System.Logger.Level.INFO, "knowledge document {0} ({1}) processed: {2} chunks in {3} ms",
                        document.uuid(), document.filename(), chunks, (System.nanoTime() - started) / 1_000_000);
                return true;
            }).onFailure().recoverWithUni(failure -> {
                String reason = failure instanceof Refused || failure instanceof IllegalArgumentException
                        || failure instanceof DomainRuleViolation
                        || failure instanceof UpstreamServiceException
                        ? failure.getMessage() : "Processing failed: " + failure;
                LOG.log(System.Logger.Level.INFO, "knowledge document {0} failed: {1}", document.uuid(), reason);
                return documents.fail(document, owner, reason, document.fileSizeBytes(), document.fileHash())
                        .replaceWith(true);
            });
        });
    }

    @Override
    public Uni<Integer> purgeAbandonedUploads(Duration olderThan) {
        return documents.deleteUnsubmitted(olderThan);
    }

    private Uni<Integer> process(KnowledgeDocument document) {
        if (document.fileSizeBytes() > maxBytes) {
            return Uni.createFrom().failure(new Refused(tooLarge(document.fileSizeBytes())));
        }
        DocumentFormat format;
        try {
            format = DocumentFormat.of(document.filename(), document.mimeType());
        } catch (RuntimeException e) {
            return Uni.createFrom().failure(new Refused(e.getMessage()));
        }
        return store.open(document.storageKey()).chain(opened -> {
            InputStream in = opened.orElseThrow(() -> new Refused("The file is no longer in the object store"));
            return Uni.createFrom().item(() -> read(in)).runSubscriptionOn(Infrastructure.getDefaultWorkerPool());
        }).chain(read -> documents.duplicateOf(document.organizationId(), read.hash(), document.id()).chain(dup -> {
            if (dup.isPresent()) {
                return documents.fail(document, owner, "Duplicate of " + dup.get() + " (same SHA-256)",
                        read.bytes().length, read.hash()).replaceWith(0);
            }
            return Uni.createFrom().item(() -> text.extract(format, read.bytes()))
                    .runSubscriptionOn(Infrastructure.getDefaultWorkerPool())
                    .chain(extracted -> {
                        if (extracted.text() == null || extracted.text().isBlank()) {
                            throw new Refused("No text could be extracted from " + document.filename());
                        }
                        List<Chunk> chunks = document.retrievalMode() == RetrievalMode.FULL_DOCUMENT
                                ? List.of(new Chunk(0, extracted.text().strip(), null, Map.of("full_document", true)))
                                : Chunker.chunks(extracted.text(), Chunker.DEFAULT_MAX_CHARS, Chunker.DEFAULT_OVERLAP);
                        Map<String, Object> metadata = new LinkedHashMap<>(extracted.metadata());
                        metadata.put("format", format.name().toLowerCase(Locale.ROOT));
                        metadata.put("characters", extracted.text().length());
                        return embed(document, chunks, metadata).chain(stored -> documents.complete(document, owner,
                                stored, read.bytes().length, read.hash(), metadata)).replaceWith(chunks.size());
                    });
        }));
    }

    private Uni<List<StoredChunk>> embed(KnowledgeDocument document, List<Chunk> chunks, Map<String, Object> metadata) {
        return models.resolve(document.organizationId(), document.createdBy()).chain(resolved -> {
            Optional<ModelEndpoint> endpoint = resolved.endpoint(ModelService.EMBEDDINGS);
            if (endpoint.isEmpty() || document.retrievalMode() == RetrievalMode.FULL_DOCUMENT) {
                return Uni.createFrom().item(chunks.stream().map(c -> new StoredChunk(c, null)).toList());
            }
            List<String> texts = chunks.stream().map(c -> c.contextualizedText() == null ? c.text()
                    : c.contextualizedText()).toList();
            return embeddings.embed(endpoint.get(), texts).map(vectors -> {
                metadata.put("embedding_model", endpoint.get().provider() + "/" + endpoint.get().model());
                List<StoredChunk> out = new ArrayList<>();
                for (int i = 0; i < chunks.size(); i++) {
                    out.add(new StoredChunk(chunks.get(i), vectors.get(i)));
                }
                return out;
            });
        });
    }

    private Read read(InputStream in) {
        try (in) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            if (bytes.length > maxBytes) {
                throw new Refused(tooLarge(bytes.length));
            }
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            return new Read(bytes, HexFormat.of().formatHex(sha.digest(bytes)));
        } catch (IOException e) {
            throw new Refused("The file could not be read: " + e.getMessage());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private String tooLarge(long size) {
        return "The file is larger than the limit of " + maxBytes / (1024 * 1024) + " MB (" + size + " bytes)";
    }
}
