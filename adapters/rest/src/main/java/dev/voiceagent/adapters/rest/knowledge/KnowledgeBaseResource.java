package dev.voiceagent.adapters.rest.knowledge;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import dev.voiceagent.application.knowledge.KnowledgeUseCases.KnowledgeBaseUseCase;
import dev.voiceagent.application.knowledge.KnowledgeUseCases.SearchHit;
import dev.voiceagent.domain.knowledge.KnowledgeDocument;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The organization's knowledge base: documents uploaded to the object store and processed in the background into
 * chunks; search ranks them by full-text search, fused with embedding similarity when an embeddings model is
 * configured.
 */
@Path("/api/v1/knowledge-base")
public class KnowledgeBaseResource {

    public record DocumentUploadRequestSchema(@NotBlank @Size(max = 255) String filename,
            @NotBlank @Size(max = 200) String mimeType,
            @Schema(nullable = true) Map<String, Object> customMetadata) {
    }

    public record DocumentUploadResponseSchema(String uploadUrl, String documentUuid, String s3Key) {
    }

    public record ProcessDocumentRequestSchema(@NotBlank @Size(max = 64) String documentUuid,
            @NotBlank @Size(max = 500) String s3Key,
            @Schema(enumeration = {"chunked", "full_document"}, defaultValue = "chunked") String retrievalMode) {
    }

    public record DocumentResponseSchema(long id, String documentUuid, String filename, long fileSizeBytes,
            String fileHash, String mimeType,
            @Schema(enumeration = {"pending", "processing", "completed", "failed"}) String processingStatus,
            @Schema(nullable = true) String processingError, int totalChunks, String retrievalMode,
            Map<String, Object> customMetadata,
            @Schema(description = "What extraction learned (format, pages, title, characters, embedding_model)")
            Map<String, Object> doclingMetadata, @Schema(nullable = true) String sourceUrl,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant updatedAt,
            long organizationId, long createdBy, boolean isActive) {

        static DocumentResponseSchema of(KnowledgeDocument d) {
            return new DocumentResponseSchema(d.id(), d.uuid(), d.filename(), d.fileSizeBytes(), d.fileHash(),
                    d.mimeType(), d.status().wireName(), d.processingError(), d.totalChunks(),
                    d.retrievalMode().wireName(), d.customMetadata(), d.extractionMetadata(), null, d.createdAt(),
                    d.updatedAt(), d.organizationId(), d.createdBy(), d.active());
        }
    }

    public record DocumentListResponseSchema(List<DocumentResponseSchema> documents, long total, int limit,
            int offset) {
    }

    public record DeleteDocumentResponse(boolean success, String documentUuid) {
    }

    public record ChunkSearchRequestSchema(@NotBlank @Size(max = 2_000) String query,
            @Schema(defaultValue = "5") @Min(1) @Max(50) Integer limit,
            @Schema(nullable = true) @Size(max = 100) List<@NotBlank String> documentUuids,
            @Schema(nullable = true) @DecimalMin("0") @DecimalMax("1") Double minSimilarity) {
    }

    public record ChunkResponseSchema(long id, long documentId, String chunkText,
            @Schema(nullable = true) String contextualizedText, int chunkIndex, Map<String, Object> chunkMetadata,
            String filename, String documentUuid, double similarity) {

        static ChunkResponseSchema of(SearchHit h) {
            return new ChunkResponseSchema(h.id(), h.documentId(), h.chunkText(), h.contextualizedText(),
                    h.chunkIndex(), h.chunkMetadata(), h.filename(), h.documentUuid(), h.similarity());
        }
    }

    public record ChunkSearchResponseSchema(List<ChunkResponseSchema> chunks, String query, int totalResults,
            @Schema(enumeration = {"full_text", "hybrid"}, description = "full_text, or hybrid when an embeddings"
                    + " model is configured") String searchMode) {
    }

    private final Caller caller;
    private final KnowledgeBaseUseCase knowledge;

    public KnowledgeBaseResource(Caller caller, KnowledgeBaseUseCase knowledge) {
        this.caller = caller;
        this.knowledge = knowledge;
    }

    @POST
    @Path("/upload-url")
    @Operation(summary = "Get Upload Url", description = "A signed PUT URL (30 minutes) for a txt, md, csv, html, pdf or"
            + " docx file up to the installation's limit (100 MB unless configured)")
    public Uni<DocumentUploadResponseSchema> uploadUrl(@NotNull @Valid DocumentUploadRequestSchema body) {
        return knowledge.uploadUrl(caller.principal(), body.filename(), body.mimeType(), body.customMetadata())
                .map(u -> new DocumentUploadResponseSchema(u.uploadUrl(), u.documentUuid(), u.storageKey()));
    }

    @POST
    @Path("/process-document")
    @Operation(summary = "Process Document", description = "Queues the uploaded file (pending); a background tick on"
            + " any replica extracts, chunks and indexes it (completed), or fails it with the reason")
    public Uni<DocumentResponseSchema> process(@NotNull @Valid ProcessDocumentRequestSchema body) {
        return knowledge.process(caller.principal(), body.documentUuid(), body.s3Key(), body.retrievalMode())
                .map(DocumentResponseSchema::of);
    }

    @GET
    @Path("/documents")
    @Operation(summary = "List Documents", description = "Newest first; status filter")
    public Uni<DocumentListResponseSchema> list(@QueryParam("status") String status,
            @QueryParam("limit") @DefaultValue("100") @Min(1) @Max(100) int limit,
            @QueryParam("offset") @DefaultValue("0") @Min(0) int offset) {
        KnowledgeDocument.Status s = status == null ? null : KnowledgeDocument.Status.byWireName(status)
                .orElseThrow(() -> new RequestValidationException(ValidationError.of(List.of("query", "status"),
                        "Input should be 'pending', 'processing', 'completed' or 'failed'", "enum", status)));
        return knowledge.list(caller.principal(), s, limit, offset).map(page -> new DocumentListResponseSchema(
                page.documents().stream().map(DocumentResponseSchema::of).toList(), page.total(), limit, offset));
    }

    @GET
    @Path("/documents/{document_uuid}")
    @Operation(summary = "Get Document")
    public Uni<DocumentResponseSchema> get(@PathParam("document_uuid") String uuid) {
        return knowledge.get(caller.principal(), uuid).map(DocumentResponseSchema::of);
    }

    @DELETE
    @Path("/documents/{document_uuid}")
    @Operation(summary = "Delete Document", description = "Soft delete: its chunks are no longer found")
    public Uni<DeleteDocumentResponse> delete(@PathParam("document_uuid") String uuid) {
        return knowledge.delete(caller.principal(), uuid).map(v -> new DeleteDocumentResponse(true, uuid));
    }

    @POST
    @Path("/search")
    @Operation(summary = "Search Chunks", description = "Full-text ranking (websearch syntax: \"quoted phrases\", -not,"
            + " or); with an embeddings model, fused with cosine similarity by reciprocal rank")
    public Uni<ChunkSearchResponseSchema> search(@NotNull @Valid ChunkSearchRequestSchema body) {
        int limit = body.limit() == null ? 5 : body.limit();
        return knowledge.search(caller.principal(), body.query(), limit, body.documentUuids(), body.minSimilarity())
                .map(r -> new ChunkSearchResponseSchema(r.chunks().stream().map(ChunkResponseSchema::of).toList(),
                        r.query(), r.chunks().size(), r.mode()));
    }
}
