package dev.voiceagent.application.shared;

import io.smallrye.mutiny.Uni;
import java.util.function.Supplier;

/**
 * Out-port: secrets this installation generates for itself when none is configured (e.g. the token
 * signing key in local mode). Shared through the database, so every replica agrees on them.
 */
public interface InstanceSecretRepository {

    /** The stored secret of this name; if none, stores the generated one (the first writer wins). */
    Uni<String> getOrCreate(String name, Supplier<String> generator);
}
