package dev.voiceagent.application.auth;

import io.smallrye.mutiny.Uni;

/** Out-port: a slow, salted password hash. Implementations must not block the caller's thread. */
public interface PasswordHasher {

    Uni<String> hash(String password);

    /**
     * Whether the password matches the hash. A null hash is never matched but costs the same time as a
     * real check, so that an unknown account cannot be told apart by timing.
     */
    Uni<Boolean> matches(String password, String hash);
}
