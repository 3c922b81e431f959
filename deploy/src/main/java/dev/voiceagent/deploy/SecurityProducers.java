package dev.voiceagent.deploy;

import dev.voiceagent.adapters.rest.auth.BcryptPasswordHasher;
import dev.voiceagent.adapters.rest.auth.HmacJwtTokenService;
import dev.voiceagent.application.auth.TokenService;
import dev.voiceagent.application.ratelimit.RateLimitService;
import dev.voiceagent.application.ratelimit.RateLimitStore;
import dev.voiceagent.application.ratelimit.RateLimitUseCase;
import io.quarkus.runtime.Startup;
import io.quarkus.runtime.StartupEvent;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import org.jboss.logging.Logger;

@ApplicationScoped
public class SecurityProducers {

    private static final Logger LOG = Logger.getLogger(SecurityProducers.class);

    /**
     * The token signing secret: the configured one, or (local mode) one generated on first start and
     * kept in the database so that every replica and every restart agrees on it ({@link InstanceKeyring}).
     */
    @Produces
    @Singleton
    @Startup
    TokenService tokens(VoiceAgentConfig config, InstanceKeyring keyring) {
        String secret = config.auth().jwtSecret().filter(s -> !s.isBlank()).orElseGet(() -> {
            LOG.info("No voiceagent.auth.jwt-secret configured: using the instance secret kept in the database");
            return keyring.get(InstanceKeyring.JWT_SIGNING);
        });
        return new HmacJwtTokenService(secret.getBytes(StandardCharsets.UTF_8), config.auth().tokenLifetime());
    }

    /** Bean types: PasswordHasher, and BcryptPasswordHasher for its warm-up at start. */
    @Produces
    @Singleton
    BcryptPasswordHasher passwordHasher(Vertx vertx, VoiceAgentConfig config) {
        return new BcryptPasswordHasher(vertx, config.auth().bcryptCost());
    }

    /**
     * bcrypt's costly first use (about half a second at cost 12 on a cold JVM) paid at start on a worker, without
     * waiting for it, rather than by the first sign-up or log-in.
     */
    void warmPasswordHasher(@Observes StartupEvent start, BcryptPasswordHasher hasher) {
        hasher.warmUp().subscribe().with(ignored -> LOG.debug("password hasher warmed up"),
                failure -> LOG.warnf("password hasher not warmed up: %s", failure.toString()));
    }

    /** Per-key token buckets shared through the database (installation defaults; an organization's own in its row). */
    @Produces
    @Singleton
    RateLimitUseCase rateLimits(RateLimitStore store, VoiceAgentConfig config) {
        VoiceAgentConfig.RateLimit limits = config.rateLimit();
        return new RateLimitService(store, limits.enabled(), limits.perSecond(), limits.burst(), System::nanoTime);
    }
}
