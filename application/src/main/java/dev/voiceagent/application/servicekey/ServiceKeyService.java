package dev.voiceagent.application.servicekey;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.servicekey.ServiceKeyUseCases.ArchiveServiceKeyUseCase;
import dev.voiceagent.application.servicekey.ServiceKeyUseCases.CreateServiceKeyUseCase;
import dev.voiceagent.application.servicekey.ServiceKeyUseCases.ListServiceKeysUseCase;
import dev.voiceagent.application.servicekey.ServiceKeyUseCases.ReactivateServiceKeyUseCase;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.apikey.ApiKeySecret;
import dev.voiceagent.domain.servicekey.ServiceKey;
import io.smallrye.mutiny.Uni;
import java.security.SecureRandom;
import java.time.Clock;
import java.util.List;
import java.util.function.UnaryOperator;

/** Service keys of the caller's organization; another organization's key is a 404. */
@Singleton
public class ServiceKeyService implements CreateServiceKeyUseCase, ListServiceKeysUseCase, ArchiveServiceKeyUseCase,
        ReactivateServiceKeyUseCase {

    static final String NOT_FOUND = "Service key not found";

    private final ServiceKeyRepository keys;
    private final SecureRandom random;
    private final Clock clock;

    public ServiceKeyService(ServiceKeyRepository keys, SecureRandom random, Clock clock) {
        this.keys = keys;
        this.random = random;
        this.clock = clock;
    }

    @Override
    public Uni<CreatedServiceKey> create(Principal principal, String name, Integer expiresInDays) {
        ApiKeySecret secret = ApiKeySecret.generateServiceKey(random);
        ServiceKey key = ServiceKey.issue(principal.organizationId(), principal.userId(), name, expiresInDays, secret,
                clock.instant());
        return keys.insert(key).map(stored -> new CreatedServiceKey(stored, secret.value()));
    }

    @Override
    public Uni<List<ServiceKey>> list(Principal principal, boolean includeArchived) {
        return keys.list(principal.organizationId(), includeArchived);
    }

    @Override
    public Uni<ServiceKey> archive(Principal principal, long id) {
        return change(principal, id, key -> key.archive(clock.instant()));
    }

    @Override
    public Uni<ServiceKey> reactivate(Principal principal, long id) {
        return change(principal, id, key -> key.reactivate(clock.instant()));
    }

    private Uni<ServiceKey> change(Principal principal, long id, UnaryOperator<ServiceKey> change) {
        return keys.find(principal.organizationId(), id)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)))
                .chain(key -> keys.update(change.apply(key)));
    }
}
