package dev.voiceagent.application.fakes;

import dev.voiceagent.application.auth.PasswordHasher;
import dev.voiceagent.application.auth.TokenClaims;
import dev.voiceagent.application.auth.TokenService;
import dev.voiceagent.domain.account.User;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Transparent stand-ins: "hash:" + password, "token-for-<id>" tokens, and a pass-through unit of work. */
public final class FakeSecurity {

    private FakeSecurity() {
    }

    public static class Hasher implements PasswordHasher {
        public final List<String> checkedHashes = new ArrayList<>();
        public int hashes;

        @Override
        public Uni<String> hash(String password) {
            hashes++;
            return Uni.createFrom().item("hash:" + password);
        }

        @Override
        public Uni<Boolean> matches(String password, String hash) {
            checkedHashes.add(hash);
            return Uni.createFrom().item(hash != null && hash.equals("hash:" + password));
        }
    }

    public static class Tokens implements TokenService {
        public Instant expiresAt = Instant.MAX;

        @Override
        public String issue(User user, Instant now) {
            return "token-for-" + user.id();
        }

        @Override
        public Optional<TokenClaims> verify(String token, Instant now) {
            if (!token.startsWith("token-for-") || !now.isBefore(expiresAt)) {
                return Optional.empty();
            }
            return Optional.of(new TokenClaims(Long.parseLong(token.substring(10)), null, now, expiresAt));
        }
    }
}
