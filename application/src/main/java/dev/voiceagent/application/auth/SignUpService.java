package dev.voiceagent.application.auth;

import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.shared.UnitOfWork;
import dev.voiceagent.domain.account.Organization;
import dev.voiceagent.domain.account.User;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.UUID;

/** Creates a local user together with its own organization and signs it in. */
public class SignUpService implements SignUpUseCase {

    static final String EMAIL_TAKEN = "Email already registered";
    static final String DISABLED = "Signup is disabled";

    private final AccountRepository accounts;
    private final PasswordHasher hasher;
    private final TokenService tokens;
    private final UnitOfWork unitOfWork;
    private final Clock clock;
    private final boolean enabled;

    public SignUpService(AccountRepository accounts, PasswordHasher hasher, TokenService tokens,
            UnitOfWork unitOfWork, Clock clock, boolean enabled) {
        this.enabled = enabled;
        this.accounts = accounts;
        this.hasher = hasher;
        this.tokens = tokens;
        this.unitOfWork = unitOfWork;
        this.clock = clock;
    }

    @Override
    public Uni<AuthSession> signUp(SignUpCommand command) {
        if (!enabled) {
            return Uni.createFrom().failure(new ForbiddenException(DISABLED));
        }
        // Cheap check first so that a taken address costs no bcrypt round; the unique index decides races.
        return accounts.findUserByEmail(command.email())
                .invoke(existing -> {
                    if (existing.isPresent()) {
                        throw new ConflictException(EMAIL_TAKEN);
                    }
                })
                .chain(() -> hasher.hash(command.password()))
                .chain(hash -> {
                    var now = clock.instant();
                    User user = User.signUp(command.email(), command.name(), hash, now, UUID.randomUUID());
                    Organization organization = Organization.forNewUser(user.providerId(), now);
                    return unitOfWork.inTransaction(() -> accounts.createUserWithOrganization(user, organization));
                })
                .map(user -> new AuthSession(tokens.issue(user, clock.instant()), user));
    }
}
