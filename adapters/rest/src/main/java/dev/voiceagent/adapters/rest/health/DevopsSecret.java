package dev.voiceagent.adapters.rest.health;

import dev.voiceagent.application.health.ServiceUnavailableException;
import dev.voiceagent.application.shared.ForbiddenException;
import jakarta.enterprise.context.ApplicationScoped;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The shared operations secret of the health operations (voiceagent.devops.secret, e.g. from the
 * VOICEAGENT_DEVOPS_SECRET environment variable): none configured -> 503, missing or wrong -> 403.
 * Compared in constant time.
 */
@ApplicationScoped
public class DevopsSecret {

    public static final String HEADER = "X-Devops-Secret";
    public static final String REFERENCE_HEADER = "X-Dograh-Devops-Secret";

    private final Optional<byte[]> secret;

    public DevopsSecret(@ConfigProperty(name = "voiceagent.devops.secret") Optional<String> configured) {
        this.secret = configured.filter(s -> !s.isBlank()).map(s -> s.getBytes(StandardCharsets.UTF_8));
    }

    public void check(String given, String givenReference) {
        byte[] expected = secret.orElseThrow(() -> new ServiceUnavailableException("Devops secret is not configured"));
        String presented = given != null ? given : givenReference;
        if (presented == null || !MessageDigest.isEqual(expected, presented.getBytes(StandardCharsets.UTF_8))) {
            throw new ForbiddenException("Forbidden");
        }
    }
}
