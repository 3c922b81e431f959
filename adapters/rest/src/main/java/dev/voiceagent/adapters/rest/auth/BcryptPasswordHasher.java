package dev.voiceagent.adapters.rest.auth;

import dev.voiceagent.application.auth.PasswordHasher;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import org.mindrot.jbcrypt.BCrypt;

/**
 * bcrypt on Vert.x worker threads: the event loop never waits for a hash, and the result comes back
 * on the caller's context (where the reactive database session lives).
 */
public class BcryptPasswordHasher implements PasswordHasher {

    private final Vertx vertx;
    private final int cost;
    private final String decoyHash;

    public BcryptPasswordHasher(Vertx vertx, int cost) {
        this.vertx = vertx;
        this.cost = cost;
        this.decoyHash = BCrypt.hashpw("decoy-password-never-matched", BCrypt.gensalt(cost));
    }

    @Override
    public Uni<String> hash(String password) {
        return vertx.executeBlocking(Uni.createFrom().item(() -> BCrypt.hashpw(password, BCrypt.gensalt(cost))), false);
    }

    @Override
    public Uni<Boolean> matches(String password, String hash) {
        return vertx.executeBlocking(Uni.createFrom().item(() -> {
            if (hash == null) {
                BCrypt.checkpw(password, decoyHash); // same cost as a real check
                return false;
            }
            try {
                return BCrypt.checkpw(password, hash);
            } catch (IllegalArgumentException malformedHash) {
                return false;
            }
        }), false);
    }
}
