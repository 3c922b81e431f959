package dev.voiceagent.application.auth;

import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.usage.CreditLedger;
import dev.voiceagent.domain.account.Organization;
import dev.voiceagent.domain.account.User;
import dev.voiceagent.domain.usage.CreditEntry;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.Map;
import java.util.UUID;

/** Creates a local user together with its own organization and signs it in. */
public class SignUpService implements SignUpUseCase {

    static final String EMAIL_TAKEN = "Email already registered";
    static final String DISABLED = "Signup is disabled";

    private final AccountRepository accounts;
    private final PasswordHasher hasher;
    private final TokenService tokens;
    private final Clock clock;
    private final boolean enabled;
    private final CreditLedger credits;
    private final long initialGrant;
    private static final System.Logger LOG = System.getLogger(SignUpService.class.getName());

    public SignUpService(AccountRepository accounts, PasswordHasher hasher, TokenService tokens,
            Clock clock, boolean enabled) {
        this(accounts, hasher, tokens, clock, enabled, null, 0);
    }

    /** With {@code initialGrant} credits (cents) granted to each new organization when positive. */
    public SignUpService(AccountRepository accounts, PasswordHasher hasher, TokenService tokens,
            Clock clock, boolean enabled, CreditLedger credits, long initialGrant) {
        this.credits = credits;
        this.initialGrant = initialGrant;
        this.enabled = enabled;
        this.accounts = accounts;
        this.hasher = hasher;
        this.tokens = tokens;
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
                    return accounts.createUserWithOrganization(user, organization);
                })
                .call(this::grant)
                .map(user -> new AuthSession(tokens.issue(user, clock.instant()), user));
    }

    /** The installation's welcome credits, once per organization (the key is the organization's). */
    private Uni<Void> grant(User user) {
        if (credits == null || initialGrant <= 0 || user.organizationId() == null) {
            return Uni.createFrom().voidItem();
        }
        return credits.append(new CreditLedger.Append(user.organizationId(),
                        CreditEntry.Type.GRANT, "signup", initialGrant, null, null, null,
                        null, null, "grant:signup:" + user.organizationId(), Map.of()))
                .replaceWithVoid()
                .onFailure().recoverWithUni(failure -> {
                    LOG.log(System.Logger.Level.WARNING, "the welcome credits of organization {0} were not granted:"
                            + " {1}", user.organizationId(), failure.toString());
                    return Uni.createFrom().voidItem();
                });
    }
}
