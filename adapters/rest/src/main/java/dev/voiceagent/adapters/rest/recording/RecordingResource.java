package dev.voiceagent.adapters.rest.recording;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.shared.RequestValidationException;
import dev.voiceagent.adapters.rest.shared.ValidationError;
import dev.voiceagent.application.recording.RecordingRepository;
import dev.voiceagent.application.recording.RecordingUseCases.FileToUpload;
import dev.voiceagent.application.recording.RecordingUseCases.NewRecording;
import dev.voiceagent.application.recording.RecordingUseCases.RecordingsUseCase;
import dev.voiceagent.application.recording.RecordingUseCases.Transcription;
import dev.voiceagent.domain.recording.Recording;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.multipart.FileUpload;

/**
 * Recorded audio prompts that greetings, transitions and tools play. Files go straight to the object store by
 * signed URLs; a record names an uploaded file; a recording a published version names cannot be deleted.
 */
@Path("/api/v1/workflow-recordings")
public class RecordingResource {

    public record FileDescriptor(@NotBlank @Size(max = 255) String filename,
            @Schema(defaultValue = "audio/wav") @Size(max = 100) String mimeType,
            @NotNull @Positive @Max(Recording.MAX_BYTES) Long fileSize) {
    }

    public record BatchRecordingUploadRequestSchema(
            @NotNull @NotEmpty @Size(max = Recording.MAX_FILES) List<@NotNull @Valid FileDescriptor> files) {
    }

    public record RecordingUploadResponseSchema(String uploadUrl, String recordingId, String storageKey) {
    }

    public record BatchRecordingUploadResponseSchema(List<RecordingUploadResponseSchema> items) {
    }

    public record RecordingCreateRequestSchema(@NotBlank @Size(max = 64) String recordingId,
            @Schema(nullable = true, description = "The workflow the recording belongs to (a list filter)") Long workflowId,
            @Schema(nullable = true) @Size(max = 100) String ttsProvider,
            @Schema(nullable = true) @Size(max = 200) String ttsModel,
            @Schema(nullable = true) @Size(max = 200) String ttsVoiceId,
            @NotNull @Size(max = Recording.MAX_TRANSCRIPT) String transcript,
            @NotBlank @Size(max = 500) String storageKey,
            @Schema(nullable = true) Map<String, Object> metadata) {
    }

    public record BatchRecordingCreateRequestSchema(
            @NotNull @NotEmpty @Size(max = Recording.MAX_FILES) List<@NotNull @Valid RecordingCreateRequestSchema> recordings) {
    }

    public record RecordingResponseSchema(long id, String recordingId, @Schema(nullable = true) Long workflowId,
            long organizationId, @Schema(nullable = true) String ttsProvider, @Schema(nullable = true) String ttsModel,
            @Schema(nullable = true) String ttsVoiceId, String transcript, String storageKey, String storageBackend,
            Map<String, Object> metadata, long createdBy,
            @Schema(type = SchemaType.STRING, format = "date-time", implementation = String.class) Instant createdAt,
            boolean isActive) {

        static RecordingResponseSchema of(Recording r) {
            return new RecordingResponseSchema(r.id(), r.recordingId(), r.workflowId(), r.organizationId(),
                    r.ttsProvider(), r.ttsModel(), r.ttsVoiceId(), r.transcript(), r.storageKey(), r.storageBackend(),
                    r.metadata(), r.createdBy(), r.createdAt(), r.active());
        }
    }

    public record BatchRecordingCreateResponseSchema(List<RecordingResponseSchema> recordings) {
    }

    public record RecordingListResponseSchema(List<RecordingResponseSchema> recordings, int total) {
    }

    public record RecordingUpdateRequestSchema(@NotBlank @Size(min = 1, max = 64) String recordingId) {
    }

    public record DeleteRecordingResponse(boolean success, String recordingId) {
    }

    public record TranscriptionResponse(String transcript, String language, String provider,
            @Schema(nullable = true) String model, @Schema(nullable = true) Double durationSeconds) {

        static TranscriptionResponse of(Transcription t) {
            return new TranscriptionResponse(t.transcript(), t.language(), t.provider(), t.model(), t.durationSeconds());
        }
    }

    private final Caller caller;
    private final RecordingsUseCase recordings;
    private final Vertx vertx;

    public RecordingResource(Caller caller, RecordingsUseCase recordings, Vertx vertx) {
        this.caller = caller;
        this.recordings = recordings;
        this.vertx = vertx;
    }

    @POST
    @Path("/upload-url")
    @Operation(summary = "Get Upload Urls", description = "A signed PUT URL per file (1 to 20 audio files of at most"
            + " 5 MB, valid 30 minutes), each with a new short recording id")
    public Uni<BatchRecordingUploadResponseSchema> uploadUrls(@NotNull @Valid BatchRecordingUploadRequestSchema body) {
        return recordings.uploadUrls(caller.principal(), body.files().stream()
                        .map(f -> new FileToUpload(f.filename(), f.mimeType(), f.fileSize())).toList())
                .map(items -> new BatchRecordingUploadResponseSchema(items.stream()
                        .map(u -> new RecordingUploadResponseSchema(u.uploadUrl(), u.recordingId(), u.storageKey()))
                        .toList()));
    }

    @POST
    @Path("/")
    @Operation(summary = "Create Recordings", description = "Records for uploaded files (all or none): the file must be"
            + " at its storage_key; a recording_id taken is a 409")
    public Uni<BatchRecordingCreateResponseSchema> create(@NotNull @Valid BatchRecordingCreateRequestSchema body) {
        return recordings.create(caller.principal(), body.recordings().stream()
                        .map(r -> new NewRecording(r.recordingId(), r.workflowId(), r.ttsProvider(), r.ttsModel(),
                                r.ttsVoiceId(), r.transcript(), r.storageKey(), r.metadata())).toList())
                .map(saved -> new BatchRecordingCreateResponseSchema(saved.stream().map(RecordingResponseSchema::of)
                        .toList()));
    }

    @GET
    @Path("/")
    @Operation(summary = "List Recordings", description = "Active recordings, newest first")
    public Uni<RecordingListResponseSchema> list(@QueryParam("workflow_id") Long workflowId,
            @QueryParam("tts_provider") String ttsProvider, @QueryParam("tts_model") String ttsModel,
            @QueryParam("tts_voice_id") String ttsVoiceId) {
        return recordings.list(caller.principal(), new RecordingRepository.Filter(workflowId, ttsProvider, ttsModel,
                ttsVoiceId)).map(all -> new RecordingListResponseSchema(all.stream().map(RecordingResponseSchema::of)
                .toList(), all.size()));
    }

    @PATCH
    @Path("/{id}")
    @Operation(summary = "Rename Recording", description = "A new recording_id (1 to 64 letters, digits, _ or -);"
            + " taken: 409")
    public Uni<RecordingResponseSchema> rename(@PathParam("id") long id,
            @NotNull @Valid RecordingUpdateRequestSchema body) {
        return recordings.rename(caller.principal(), id, body.recordingId()).map(RecordingResponseSchema::of);
    }

    @DELETE
    @Path("/{recording_id}")
    @Operation(summary = "Delete Recording", description = "Soft delete; 409 while a published version names it")
    public Uni<DeleteRecordingResponse> delete(@PathParam("recording_id") String recordingId) {
        return recordings.delete(caller.principal(), recordingId)
                .map(v -> new DeleteRecordingResponse(true, recordingId));
    }

    /** The multipart form of a transcription. */
    public static class TranscribeForm {
        @RestForm("file")
        @Schema(type = SchemaType.STRING, format = "binary", description = "The audio (at most 5 MB)")
        public FileUpload file;

        @RestForm("language")
        @Schema(defaultValue = "en")
        public String language;
    }

    @POST
    @Path("/transcribe")
    @Consumes(MediaType.MULTIPART_FORM_DATA)
    @Operation(summary = "Transcribe Audio", description = "Transcribes an audio file with the organization's"
            + " speech-to-text model (OpenAI-compatible or Deepgram); a provider that fails is a 502")
    public Uni<TranscriptionResponse> transcribe(TranscribeForm form) {
        if (form == null || form.file == null) {
            throw new RequestValidationException(ValidationError.of(List.of("body", "file"), "Field required",
                    "missing", null));
        }
        if (form.file.size() > Recording.MAX_BYTES) {
            throw new RequestValidationException(ValidationError.of(List.of("body", "file"),
                    "The file must be at most " + Recording.MAX_BYTES + " bytes", "value_error", null));
        }
        String type = form.file.contentType();
        return vertx.fileSystem().readFile(form.file.uploadedFile().toString())
                .chain(buffer -> recordings.transcribe(caller.principal(), buffer.getBytes(), type, form.language))
                .map(TranscriptionResponse::of);
    }
}
