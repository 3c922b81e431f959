package dev.voiceagent.adapters.rest.storage;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.storage.CreateDownloadUrlUseCase;
import dev.voiceagent.application.storage.CreateUploadUrlUseCase;
import dev.voiceagent.application.storage.GetFileMetadataUseCase;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Signed URLs for uploads and downloads (the path segment object-store stands for the storage provider). */
@Path("/api/v1/object-store")
public class ObjectStoreResource {

    public record PresignedUploadUrlRequest(
            @NotBlank @Pattern(regexp = "(?i).*\\.csv$", message = "String should match pattern '.*\\.csv$'") String fileName,
            @NotNull @Min(1) @Max(10_485_760) Long fileSize, String contentType) {
    }

    public record PresignedUploadUrlResponse(String uploadUrl, String fileKey, long expiresIn) {
    }

    public record SignedUrlResponse(String url, long expiresIn) {
    }

    public record FileMetadataResponse(String key, Map<String, Object> metadata) {
    }

    private final Caller caller;
    private final CreateUploadUrlUseCase upload;
    private final CreateDownloadUrlUseCase download;
    private final GetFileMetadataUseCase metadata;

    public ObjectStoreResource(Caller caller, CreateUploadUrlUseCase upload, CreateDownloadUrlUseCase download,
            GetFileMetadataUseCase metadata) {
        this.caller = caller;
        this.upload = upload;
        this.download = download;
        this.metadata = metadata;
    }

    @POST
    @Path("/presigned-upload-url")
    public Uni<PresignedUploadUrlResponse> presignedUploadUrl(@NotNull @Valid PresignedUploadUrlRequest body) {
        return upload.create(caller.principal(), body.fileName(), body.fileSize(), body.contentType())
                .map(u -> new PresignedUploadUrlResponse(u.uploadUrl(), u.fileKey(), u.expiresIn()));
    }

    @GET
    @Path("/signed-url")
    public Uni<SignedUrlResponse> signedUrl(@QueryParam("key") @NotBlank String key,
            @QueryParam("expires_in") @DefaultValue("3600") @Min(1) @Max(604_800) int expiresIn,
            @QueryParam("inline") @DefaultValue("false") boolean inline) {
        return download.create(caller.principal(), key, Duration.ofSeconds(expiresIn), inline)
                .map(url -> new SignedUrlResponse(url, expiresIn));
    }

    @GET
    @Path("/file-metadata")
    public Uni<FileMetadataResponse> fileMetadata(@QueryParam("key") @NotBlank String key) {
        return metadata.metadata(caller.principal(), key).map(found -> new FileMetadataResponse(key, found.map(m -> {
            Map<String, Object> meta = new LinkedHashMap<>();
            meta.put("size", m.size());
            meta.put("content_type", m.contentType());
            meta.put("last_modified", m.lastModified().toString());
            return meta;
        }).orElse(null)));
    }
}
