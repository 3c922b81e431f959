package dev.voiceagent.application.storage;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.domain.storage.ObjectKeys;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

@Singleton
public class GetFileMetadataService implements GetFileMetadataUseCase {

    private final ObjectStore store;

    public GetFileMetadataService(ObjectStore store) {
        this.store = store;
    }

    @Override
    public Uni<Optional<ObjectMetadata>> metadata(Principal principal, String key) {
        try {
            ObjectKeys.checkOwner(key, principal.organizationId());
        } catch (ObjectKeys.ForeignKeyException e) {
            return Uni.createFrom().failure(new ForbiddenException(e.getMessage()));
        }
        return store.metadata(key);
    }
}
