package dev.voiceagent.application.storage;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.domain.storage.ObjectKeys;
import io.smallrye.mutiny.Uni;
import java.time.Duration;

@Singleton
public class CreateDownloadUrlService implements CreateDownloadUrlUseCase {

    private final ObjectStore store;

    public CreateDownloadUrlService(ObjectStore store) {
        this.store = store;
    }

    @Override
    public Uni<String> create(Principal principal, String key, Duration ttl, boolean inline) {
        try {
            ObjectKeys.checkOwner(key, principal.organizationId());
        } catch (ObjectKeys.ForeignKeyException e) {
            return Uni.createFrom().failure(new ForbiddenException(e.getMessage()));
        }
        return store.signedDownloadUrl(key, ttl, inline);
    }
}
