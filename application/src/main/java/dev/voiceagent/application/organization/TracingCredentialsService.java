package dev.voiceagent.application.organization;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.organization.TracingCredentialsUseCases.DeleteTracingCredentialsUseCase;
import dev.voiceagent.application.organization.TracingCredentialsUseCases.GetTracingCredentialsUseCase;
import dev.voiceagent.application.organization.TracingCredentialsUseCases.SaveTracingCredentialsUseCase;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.account.TracingCredentials;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** Read from the database on every request: a change is seen by every replica at once. */
@Singleton
public class TracingCredentialsService implements GetTracingCredentialsUseCase, SaveTracingCredentialsUseCase,
        DeleteTracingCredentialsUseCase {

    static final String NONE = "No tracing credentials are set";

    private final TracingCredentialsRepository repository;

    public TracingCredentialsService(TracingCredentialsRepository repository) {
        this.repository = repository;
    }

    @Override
    public Uni<Optional<TracingCredentials>> get(Principal principal) {
        return repository.find(principal.organizationId()).map(found -> found.map(TracingCredentials::masked));
    }

    @Override
    public Uni<TracingCredentials> save(Principal principal, TracingCredentials credentials) {
        long org = principal.organizationId();
        return repository.find(org).chain(stored -> {
            TracingCredentials restored = credentials.restoredFrom(stored.orElse(null));
            return repository.save(org, restored).replaceWith(restored.masked());
        });
    }

    @Override
    public Uni<Void> delete(Principal principal) {
        return repository.delete(principal.organizationId()).invoke(deleted -> {
            if (!deleted) {
                throw new ResourceNotFoundException(NONE);
            }
        }).replaceWithVoid();
    }
}
