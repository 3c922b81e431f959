package dev.voiceagent.deploy;

import dev.voiceagent.adapters.rest.auth.BcryptPasswordHasher;
import dev.voiceagent.adapters.rest.auth.HmacJwtTokenService;
import dev.voiceagent.application.auth.PasswordHasher;
import dev.voiceagent.application.auth.TokenService;
import io.quarkus.runtime.Startup;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
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
    TokenService tokens(@ConfigProperty(name = "voiceagent.auth.jwt-secret") Optional<String> configured,
            @ConfigProperty(name = "voiceagent.auth.token-lifetime", defaultValue = "PT720H") Duration lifetime,
            InstanceKeyring keyring) {
        String secret = configured.filter(s -> !s.isBlank()).orElseGet(() -> {
            LOG.info("No voiceagent.auth.jwt-secret configured: using the instance secret kept in the database");
            return keyring.get(InstanceKeyring.JWT_SIGNING);
        });
        return new HmacJwtTokenService(secret.getBytes(StandardCharsets.UTF_8), lifetime);
    }

    @Produces
    @Singleton
    PasswordHasher passwordHasher(Vertx vertx,
            @ConfigProperty(name = "voiceagent.auth.bcrypt-cost", defaultValue = "12") int cost) {
        return new BcryptPasswordHasher(vertx, cost);
    }

    /** Per-key token buckets shared through the database (installation defaults; an organization's own in its row). */
    @Produces
    @Singleton
    dev.voiceagent.application.ratelimit.RateLimitUseCase rateLimits(
            dev.voiceagent.application.ratelimit.RateLimitStore store,
            @ConfigProperty(name = "voiceagent.rate-limit.enabled", defaultValue = "true") boolean enabled,
            @ConfigProperty(name = "voiceagent.rate-limit.per-second", defaultValue = "20") double perSecond,
            @ConfigProperty(name = "voiceagent.rate-limit.burst", defaultValue = "40") int burst) {
        return new dev.voiceagent.application.ratelimit.RateLimitService(store, enabled, perSecond, burst,
                System::nanoTime);
    }
}
