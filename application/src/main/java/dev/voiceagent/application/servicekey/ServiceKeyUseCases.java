package dev.voiceagent.application.servicekey;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.servicekey.ServiceKey;
import io.smallrye.mutiny.Uni;
import java.util.List;

/** The service keys' four operations, one interface each. */
public final class ServiceKeyUseCases {

    private ServiceKeyUseCases() {
    }

    public interface CreateServiceKeyUseCase {
        Uni<CreatedServiceKey> create(Principal principal, String name, Integer expiresInDays);
    }

    public interface ListServiceKeysUseCase {
        Uni<List<ServiceKey>> list(Principal principal, boolean includeArchived);
    }

    public interface ArchiveServiceKeyUseCase {
        Uni<ServiceKey> archive(Principal principal, long id);
    }

    public interface ReactivateServiceKeyUseCase {
        /** 400 for a key that has expired. */
        Uni<ServiceKey> reactivate(Principal principal, long id);
    }
}
