package dev.voiceagent.deploy;

import dev.voiceagent.application.shared.InstanceSecretRepository;
import io.quarkus.runtime.Startup;
import jakarta.inject.Singleton;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * The keys an installation generates for itself on first start and keeps in the database, so that
 * every replica and every restart agrees on them: all read (or created) in one round trip while the
 * application starts, on the start-up thread, before the HTTP server listens and before the
 * scheduler's ticks are let run ({@link SchedulerStart}). Afterwards they are plain reads: nothing
 * that needs a key ever waits for the database, least of all on an event loop.
 */
@Singleton
@Startup(InstanceKeyring.PRIORITY)
public class InstanceKeyring {

    /** Before the @Startup producers that read the keys (default priority). */
    static final int PRIORITY = 1000;
    static final String JWT_SIGNING = "jwt_signing_secret";
    static final String CALLBACK_SIGNING = "callback_signing_key";
    static final String OBJECT_STORE_SIGNING = "object_store_signing_key";
    static final String TELEPHONY_CREDENTIALS = "telephony_credentials_key";
    static final String PUBLIC_LINK_SIGNING = "public_link_signing_key";
    /** Each key's name and its size in random bytes. */
    private static final Map<String, Integer> SIZES = Map.of(JWT_SIGNING, 48, CALLBACK_SIGNING, 32,
            OBJECT_STORE_SIGNING, 32, TELEPHONY_CREDENTIALS, 32, PUBLIC_LINK_SIGNING, 32);
    /** How long start-up waits for the database (e.g. behind a lock another session holds) before it fails. */
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final Logger LOG = Logger.getLogger(InstanceKeyring.class);

    private final Map<String, String> keys;

    InstanceKeyring(InstanceSecretRepository secrets, SecureRandom random) {
        Map<String, String> candidates = new LinkedHashMap<>();
        SIZES.forEach((name, size) -> {
            byte[] key = new byte[size];
            random.nextBytes(key);
            candidates.put(name, Base64.getEncoder().encodeToString(key));
        });
        long started = System.nanoTime();
        // Blocking is right here: this runs on the start-up thread (an event loop refuses to block, by design).
        this.keys = Map.copyOf(secrets.getOrCreateAll(candidates).await().atMost(WAIT));
        LOG.debugf("instance keys resolved in %d ms", (System.nanoTime() - started) / 1_000_000);
    }

    /** The base64 key kept under {@code name}. */
    String get(String name) {
        String key = keys.get(name);
        if (key == null) {
            throw new IllegalArgumentException("no instance key named " + name);
        }
        return key;
    }
}
