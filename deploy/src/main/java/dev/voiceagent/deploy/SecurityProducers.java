package dev.voiceagent.deploy;

import dev.voiceagent.adapters.rest.auth.BcryptPasswordHasher;
import dev.voiceagent.adapters.rest.auth.HmacJwtTokenService;
import dev.voiceagent.application.auth.PasswordHasher;
import dev.voiceagent.application.auth.TokenService;
import dev.voiceagent.application.shared.InstanceSecretRepository;
import io.quarkus.runtime.Startup;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

@ApplicationScoped
public class SecurityProducers {

    private static final Logger LOG = Logger.getLogger(SecurityProducers.class);
    static final String JWT_SECRET_NAME = "jwt_signing_secret";

    /**
     * The token signing secret: the configured one, or (local mode) one generated on first start and
     * kept in the database so that every replica and every restart agrees on it. Resolved at startup,
     * never on the event loop.
     */
    @Produces
    @Singleton
    @Startup
    TokenService tokens(@ConfigProperty(name = "voiceagent.auth.jwt-secret") Optional<String> configured,
            @ConfigProperty(name = "voiceagent.auth.token-lifetime", defaultValue = "PT720H") Duration lifetime,
            InstanceSecretRepository secrets, SecureRandom random) {
        String secret = configured.filter(s -> !s.isBlank()).orElseGet(() -> {
            String stored = InstanceKeys.getOrCreate(secrets, random, JWT_SECRET_NAME, 48);
            LOG.info("No voiceagent.auth.jwt-secret configured: using the instance secret kept in the database");
            return stored;
        });
        return new HmacJwtTokenService(secret.getBytes(StandardCharsets.UTF_8), lifetime);
    }

    @Produces
    @Singleton
    PasswordHasher passwordHasher(Vertx vertx,
            @ConfigProperty(name = "voiceagent.auth.bcrypt-cost", defaultValue = "12") int cost) {
        return new BcryptPasswordHasher(vertx, cost);
    }
}
