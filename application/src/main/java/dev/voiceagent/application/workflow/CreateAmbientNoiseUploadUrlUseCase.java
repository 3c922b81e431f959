package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface CreateAmbientNoiseUploadUrlUseCase {

    /** A signed PUT for a workflow's ambient-noise audio (the workflow must be the caller's). */
    Uni<AmbientNoiseUpload> create(Principal principal, long workflowId, String fileName, String mimeType, long fileSize);

    record AmbientNoiseUpload(String uploadUrl, String storageKey, String storageBackend) {
    }
}
