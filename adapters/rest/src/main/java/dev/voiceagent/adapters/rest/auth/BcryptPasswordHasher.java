package dev.voiceagent.adapters.rest.auth;

import dev.voiceagent.application.auth.PasswordHasher;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import java.util.function.Supplier;
import org.mindrot.jbcrypt.BCrypt;

/**
 * bcrypt on Vert.x worker threads: the event loop never waits for a hash, and the result comes back
 * on the caller's context (where the reactive database session lives). Not even the first use blocks it: creating
 * the hasher (which the first sign-up or log-in may do, on an event loop) computes nothing, and the decoy hash an
 * unknown account is checked against is made on a worker, by {@link #warmUp} at start or by the first check.
 */
public class BcryptPasswordHasher implements PasswordHasher {

    private final Vertx vertx;
    private final int cost;
    private volatile String decoyHash;

    public BcryptPasswordHasher(Vertx vertx, int cost) {
        this.vertx = vertx;
        this.cost = cost;
    }

    /**
     * Pays bcrypt's first use on a worker (its classes loaded, its loop compiled, the decoy hash made), so that the
     * first sign-up or log-in does not.
     */
    public Uni<Void> warmUp() {
        return onWorker(() -> {
            decoyHash();
            return null;
        });
    }

    @Override
    public Uni<String> hash(String password) {
        return onWorker(() -> BCrypt.hashpw(password, BCrypt.gensalt(cost)));
    }

    @Override
    public Uni<Boolean> matches(String password, String hash) {
        return onWorker(() -> {
            if (hash == null) {
                BCrypt.checkpw(password, decoyHash()); // same cost as a real check
                return false;
            }
            try {
                return BCrypt.checkpw(password, hash);
            } catch (IllegalArgumentException malformedHash) {
                return false;
            }
        });
    }

    private <T> Uni<T> onWorker(Supplier<T> work) {
        return vertx.executeBlocking(Uni.createFrom().item(work), false);
    }

    /** Made once, on a worker (the only place it is asked for). */
    private String decoyHash() {
        String decoy = decoyHash;
        if (decoy == null) {
            synchronized (this) {
                decoy = decoyHash;
                if (decoy == null) {
                    decoy = BCrypt.hashpw("decoy-password-never-matched", BCrypt.gensalt(cost));
                    decoyHash = decoy;
                }
            }
        }
        return decoy;
    }
}
