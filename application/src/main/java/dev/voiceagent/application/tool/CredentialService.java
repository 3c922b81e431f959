package dev.voiceagent.application.tool;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.tool.ToolUseCases.CredentialChange;
import dev.voiceagent.application.tool.ToolUseCases.CredentialsUseCase;
import dev.voiceagent.domain.tool.Credential;
import dev.voiceagent.domain.tool.CredentialType;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;

@Singleton
public class CredentialService implements CredentialsUseCase {

    static final String NOT_FOUND = "Credential not found";

    private final CredentialRepository credentials;
    private final Clock clock;

    public CredentialService(CredentialRepository credentials, Clock clock) {
        this.credentials = credentials;
        this.clock = clock;
    }

    @Override
    public Uni<List<Credential>> list(Principal principal) {
        return credentials.list(principal.organizationId());
    }

    @Override
    public Uni<Credential> get(Principal principal, String uuid) {
        return credentials.find(principal.organizationId(), uuid)
                .map(found -> found.orElseThrow(() -> new ResourceNotFoundException(NOT_FOUND)));
    }

    @Override
    public Uni<Credential> create(Principal principal, CredentialChange request) {
        Instant now = clock.instant();
        Credential credential = new Credential(null, principal.organizationId(), UUID.randomUUID().toString(),
                request.name(), request.description(), request.credentialType(), request.credentialData(), now, now);
        return credentials.insert(credential);
    }

    @Override
    public Uni<Credential> update(Principal principal, String uuid, CredentialChange change) {
        return get(principal, uuid).chain(stored -> {
            CredentialType type = change.credentialType() == null ? stored.type() : change.credentialType();
            Map<String, String> data;
            if (change.credentialData() != null) {
                data = Credential.restore(type, change.credentialData(), stored);
            } else {
                // another type without its data is refused by the record (its fields are missing)
                data = type == stored.type() ? stored.data() : Map.of();
            }
            Credential next = new Credential(stored.id(), stored.organizationId(), stored.uuid(),
                    change.name() == null ? stored.name() : change.name(),
                    change.description() == null ? stored.description() : change.description(), type, data,
                    stored.createdAt(), clock.instant());
            return credentials.update(next);
        });
    }

    @Override
    public Uni<Void> delete(Principal principal, String uuid) {
        return get(principal, uuid).chain(stored -> credentials.deleteUnlessUsed(principal.organizationId(), uuid))
                .map(users -> {
                    if (!users.isEmpty()) {
                        throw new ConflictException("Credential is used by " + users.size()
                                + (users.size() == 1 ? " tool: " : " tools: ") + String.join(", ", users)
                                + ". Change or archive them first.");
                    }
                    return null;
                });
    }
}
