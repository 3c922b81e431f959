package dev.voiceagent.application.workflow;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.storage.UploadUrl;
import dev.voiceagent.domain.storage.ObjectKeys;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.UUID;

@Singleton
public class CreateAmbientNoiseUploadUrlService implements CreateAmbientNoiseUploadUrlUseCase {

    static final Duration TTL = Duration.ofMinutes(15);

    private final WorkflowRepository workflows;
    private final ObjectStore store;

    public CreateAmbientNoiseUploadUrlService(WorkflowRepository workflows, ObjectStore store) {
        this.workflows = workflows;
        this.store = store;
    }

    @Override
    public Uni<AmbientNoiseUpload> create(Principal principal, long workflowId, String fileName, String mimeType,
            long fileSize) {
        long org = principal.organizationId();
        return workflows.find(org, workflowId)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException("Workflow not found")))
                .chain(workflow -> {
                    String key = ObjectKeys.ambientNoiseUpload(org, workflowId, fileName, mimeType, fileSize,
                            UUID.randomUUID());
                    return store.signedUploadUrl(key, mimeType, fileSize, TTL)
                            .map(url -> new AmbientNoiseUpload(url, key, store.backendName()));
                });
    }
}
