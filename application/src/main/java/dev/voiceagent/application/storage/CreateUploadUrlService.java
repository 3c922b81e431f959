package dev.voiceagent.application.storage;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.storage.ObjectKeys;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.UUID;

@Singleton
public class CreateUploadUrlService implements CreateUploadUrlUseCase {

    static final Duration TTL = Duration.ofMinutes(15);

    private final ObjectStore store;

    public CreateUploadUrlService(ObjectStore store) {
        this.store = store;
    }

    @Override
    public Uni<UploadUrl> create(Principal principal, String fileName, long fileSize, String contentType) {
        String key = ObjectKeys.campaignUpload(principal.organizationId(), fileName, fileSize, UUID.randomUUID());
        return store.signedUploadUrl(key, contentType == null ? "text/csv" : contentType, fileSize, TTL)
                .map(url -> new UploadUrl(url, key, TTL.toSeconds()));
    }
}
