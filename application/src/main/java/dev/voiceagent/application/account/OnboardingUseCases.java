package dev.voiceagent.application.account;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.account.OnboardingState;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;

/** The onboarding state's two operations. */
public final class OnboardingUseCases {

    private OnboardingUseCases() {
    }

    public interface GetOnboardingStateUseCase {
        Uni<OnboardingState> get(Principal principal);
    }

    public interface UpdateOnboardingStateUseCase {
        /** Null arguments leave their part as it was; lists are added to. */
        Uni<OnboardingState> update(Principal principal, Instant completedAt, Boolean skipped, List<String> seenTooltips,
                List<String> completedActions);
    }
}
