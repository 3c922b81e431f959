package dev.voiceagent.application.account;

import dev.voiceagent.domain.account.OnboardingState;
import io.smallrye.mutiny.Uni;
import java.util.function.UnaryOperator;

/** Out-port: each user's onboarding state. */
public interface OnboardingStateRepository {

    Uni<OnboardingState> get(long userId);

    /** Applies {@code change} to the stored state under a row lock (concurrent updates both land). */
    Uni<OnboardingState> update(long organizationId, long userId, UnaryOperator<OnboardingState> change);
}
