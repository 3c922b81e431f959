package dev.voiceagent.application.tool;

import dev.voiceagent.domain.tool.Credential;
import io.smallrye.mutiny.Uni;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Out-port: an organization's credentials, not deleted ones. The data is sealed at rest by the adapter; a name
 * taken in the organization is a ConflictException.
 */
public interface CredentialRepository {

    Uni<List<Credential>> list(long organizationId);

    Uni<Optional<Credential>> find(long organizationId, String uuid);

    /** The ones of {@code uuids} the organization has (one statement). */
    Uni<List<Credential>> findAll(long organizationId, Collection<String> uuids);

    Uni<Credential> insert(Credential credential);

    Uni<Credential> update(Credential credential);

    /**
     * Marks the credential deleted unless a tool that is not archived authenticates with it; then nothing
     * changes and the answer names those tools (checked and deleted in one transaction).
     */
    Uni<List<String>> deleteUnlessUsed(long organizationId, String uuid);
}
