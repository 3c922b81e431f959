package dev.voiceagent.application.organization;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.account.TracingCredentials;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** The tracing credentials' three operations, one interface each. */
public final class TracingCredentialsUseCases {

    private TracingCredentialsUseCases() {
    }

    public interface GetTracingCredentialsUseCase {
        /** Masked; empty when none are set. */
        Uni<Optional<TracingCredentials>> get(Principal principal);
    }

    public interface SaveTracingCredentialsUseCase {
        /** A key sent back masked keeps the stored one; answers the credentials masked. */
        Uni<TracingCredentials> save(Principal principal, TracingCredentials credentials);
    }

    public interface DeleteTracingCredentialsUseCase {
        /** 404 when none are set. */
        Uni<Void> delete(Principal principal);
    }
}
