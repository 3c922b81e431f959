package dev.voiceagent.application.organization;

import dev.voiceagent.domain.account.TracingCredentials;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** Out-port: an organization's tracing credentials, sealed at rest. */
public interface TracingCredentialsRepository {

    Uni<Optional<TracingCredentials>> find(long organizationId);

    Uni<Void> save(long organizationId, TracingCredentials credentials);

    /** False when there was nothing to delete. */
    Uni<Boolean> delete(long organizationId);
}
