package dev.voiceagent.application.shared;

import io.smallrye.mutiny.Uni;
import java.util.Map;

/**
 * Out-port: secrets this installation generates for itself when none is configured (e.g. the token
 * signing key in local mode). Shared through the database, so every replica agrees on them.
 */
public interface InstanceSecretRepository {

    /**
     * The stored secret of every name in {@code candidates}; a name not stored yet gets its candidate
     * value (the first writer wins, so replicas starting together agree).
     */
    Uni<Map<String, String>> getOrCreateAll(Map<String, String> candidates);
}
