package dev.voiceagent.application.auth;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.AuthenticationException;
import dev.voiceagent.domain.account.EmailAddress;
import dev.voiceagent.domain.account.User;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.Optional;

/** Checks an e-mail and password; any mismatch gets the same answer, so nothing tells which part was wrong. */
@Singleton
public class LogInService implements LogInUseCase {

    static final String INVALID = "Invalid email or password";

    private final AccountRepository accounts;
    private final PasswordHasher hasher;
    private final TokenService tokens;
    private final Clock clock;

    public LogInService(AccountRepository accounts, PasswordHasher hasher, TokenService tokens, Clock clock) {
        this.accounts = accounts;
        this.hasher = hasher;
        this.tokens = tokens;
        this.clock = clock;
    }

    @Override
    public Uni<AuthSession> logIn(String email, String password) {
        EmailAddress address;
        try {
            address = new EmailAddress(email);
        } catch (DomainRuleViolation e) {
            return Uni.createFrom().failure(new AuthenticationException(INVALID));
        }
        String candidate = password == null ? "" : password;
        return accounts.findUserByEmail(address).chain(found -> {
            // An unknown e-mail still costs one hash check (null hash), so timing does not tell it apart.
            String hash = found.map(User::passwordHash).orElse(null);
            return hasher.matches(candidate, hash).map(ok -> accepted(found, ok));
        }).map(user -> new AuthSession(tokens.issue(user, clock.instant()), user));
    }

    private static User accepted(Optional<User> found, boolean passwordMatches) {
        if (found.isEmpty() || found.get().passwordHash() == null || !passwordMatches) {
            throw new AuthenticationException(INVALID);
        }
        return found.get();
    }
}
