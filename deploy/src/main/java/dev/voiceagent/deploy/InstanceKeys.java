package dev.voiceagent.deploy;

import dev.voiceagent.application.shared.InstanceSecretRepository;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;

/**
 * Keys an installation generates for itself on first start and keeps in the database, so every
 * replica and every restart agrees on them. Resolved at startup (never on the event loop).
 */
final class InstanceKeys {

    private InstanceKeys() {
    }

    /** The base64 of {@code bytes} random bytes stored under {@code name}, created if absent. */
    static String getOrCreate(InstanceSecretRepository secrets, SecureRandom random, String name, int bytes) {
        return secrets.getOrCreate(name, () -> {
            byte[] key = new byte[bytes];
            random.nextBytes(key);
            return Base64.getEncoder().encodeToString(key);
        }).await().atMost(Duration.ofSeconds(30));
    }
}
