package dev.voiceagent.application.account;

import jakarta.inject.Singleton;
import dev.voiceagent.application.account.OnboardingUseCases.GetOnboardingStateUseCase;
import dev.voiceagent.application.account.OnboardingUseCases.UpdateOnboardingStateUseCase;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.account.OnboardingState;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;

@Singleton
public class OnboardingStateService implements GetOnboardingStateUseCase, UpdateOnboardingStateUseCase {

    private final OnboardingStateRepository repository;

    public OnboardingStateService(OnboardingStateRepository repository) {
        this.repository = repository;
    }

    @Override
    public Uni<OnboardingState> get(Principal principal) {
        return repository.get(principal.userId());
    }

    @Override
    public Uni<OnboardingState> update(Principal principal, Instant completedAt, Boolean skipped,
            List<String> seenTooltips, List<String> completedActions) {
        // checked before the write: a refused entry changes nothing
        OnboardingState.NEW.updated(completedAt, skipped, seenTooltips, completedActions);
        return repository.update(principal.organizationId(), principal.userId(),
                stored -> stored.updated(completedAt, skipped, seenTooltips, completedActions));
    }
}
