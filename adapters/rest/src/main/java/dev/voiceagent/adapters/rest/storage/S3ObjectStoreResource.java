package dev.voiceagent.adapters.rest.storage;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.storage.CreateDownloadUrlUseCase;
import dev.voiceagent.application.storage.CreateUploadUrlUseCase;
import dev.voiceagent.application.storage.GetFileMetadataUseCase;
import jakarta.ws.rs.Path;

/** The reference's /s3/... spelling of the same three operations. */
@Path("/api/v1/s3")
public class S3ObjectStoreResource extends ObjectStoreResource {

    public S3ObjectStoreResource(Caller caller, CreateUploadUrlUseCase upload, CreateDownloadUrlUseCase download,
            GetFileMetadataUseCase metadata) {
        super(caller, upload, download, metadata);
    }
}
