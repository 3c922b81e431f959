package dev.voiceagent.deploy;

import dev.voiceagent.application.auth.AccountRepository;
import dev.voiceagent.application.auth.PasswordHasher;
import dev.voiceagent.application.auth.SignUpService;
import dev.voiceagent.application.auth.SignUpUseCase;
import dev.voiceagent.application.auth.TokenService;
import dev.voiceagent.application.usage.CreditLedger;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;

/** The composition root: use-case services are plain classes, created here from their ports. */
@ApplicationScoped
public class UseCaseProducers {

    @Produces
    @Singleton
    Clock clock() {
        // microsecond ticks: what PostgreSQL stores, so a value reads back exactly as it was returned
        return Clock.tick(Clock.systemUTC(), Duration.ofNanos(1_000));
    }

    @Produces
    @Singleton
    SecureRandom secureRandom() {
        return new SecureRandom();
    }

    @Produces
    @Singleton
    SignUpUseCase signUp(AccountRepository accounts, PasswordHasher hasher, TokenService tokens,
            Clock clock, VoiceAgentConfig config, CreditLedger credits) {
        return new SignUpService(accounts, hasher, tokens, clock, config.auth().signupEnabled(), credits,
                config.credits().initialGrant());
    }
}
