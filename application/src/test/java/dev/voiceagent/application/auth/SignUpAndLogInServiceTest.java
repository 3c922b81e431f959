package dev.voiceagent.application.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.application.fakes.FakeSecurity;
import dev.voiceagent.application.fakes.InMemoryAccountRepository;
import dev.voiceagent.application.shared.AuthenticationException;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.usage.CreditLedger;
import dev.voiceagent.domain.account.EmailAddress;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.usage.CreditEntry;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class SignUpAndLogInServiceTest {

    private final InMemoryAccountRepository accounts = new InMemoryAccountRepository();
    private final FakeSecurity.Hasher hasher = new FakeSecurity.Hasher();
    private final FakeSecurity.Tokens tokens = new FakeSecurity.Tokens();
    private final Clock clock = Clock.fixed(Instant.parse("2026-11-21T10:00:00Z"), ZoneOffset.UTC);
    private final SignUpService signUp = new SignUpService(accounts, hasher, tokens, clock, true);
    private final LogInService logIn = new LogInService(accounts, hasher, tokens, clock);

    private AuthSession signUp(String email, String password, String name) {
        return signUp.signUp(new SignUpCommand(new EmailAddress(email), password, name)).await().indefinitely();
    }

    @Test
    void signUpCreatesUserAndOrganizationTogetherAndSignsIn() {
        AuthSession session = signUp("Ann@X.io", "password1", "Ann");
        assertThat(session.user().email().value()).isEqualTo("ann@x.io");
        assertThat(session.user().organizationId()).isNotNull();
        assertThat(session.user().passwordHash()).isEqualTo("hash:password1");
        assertThat(session.token()).isEqualTo("token-for-" + session.user().id());
        assertThat(accounts.organizations).hasSize(1);
        assertThat(accounts.users).hasSize(1);
    }

    @Test
    void aTakenEmailIsAConflictWhateverItsCaseAndCostsNoHash() {
        signUp("ann@x.io", "password1", null);
        int hashesBefore = hasher.hashes;
        assertThatThrownBy(() -> signUp("ANN@x.io", "password2", null))
                .isInstanceOf(ConflictException.class).hasMessage("Email already registered");
        assertThat(hasher.hashes).isEqualTo(hashesBefore);
        assertThat(accounts.users).hasSize(1);
    }

    @Test
    void shortPasswordsAreRefusedBeforeAnythingIsStored() {
        assertThatThrownBy(() -> signUp("b@x.io", "short", null)).isInstanceOf(DomainRuleViolation.class);
        assertThat(accounts.users).isEmpty();
    }

    @Test
    void aNewOrganizationGetsTheInstallationsWelcomeCreditsOnceAndASignUpSurvivesALedgerFailure() {
        List<CreditLedger.Append> appended = new ArrayList<>();
        AtomicBoolean failing = new AtomicBoolean();
        CreditLedger ledger = new CreditLedger() {
            @Override
            public io.smallrye.mutiny.Uni<Optional<CreditEntry>> append(
                    Append entry) {
                if (failing.get()) {
                    return io.smallrye.mutiny.Uni.createFrom().failure(new IllegalStateException("database down"));
                }
                appended.add(entry);
                return io.smallrye.mutiny.Uni.createFrom().item(Optional.empty());
            }

            @Override
            public io.smallrye.mutiny.Uni<Long> balance(long organizationId) {
                throw new UnsupportedOperationException();
            }

            @Override
            public io.smallrye.mutiny.Uni<LedgerPage> page(long organizationId, int page, int limit) {
                throw new UnsupportedOperationException();
            }
        };
        SignUpService granting = new SignUpService(accounts, hasher, tokens, clock, true, ledger, 500);
        AuthSession session = granting.signUp(new SignUpCommand(new EmailAddress("g@x.io"), "password1", null))
                .await().indefinitely();
        assertThat(appended).singleElement().satisfies(a -> {
            assertThat(a.organizationId()).isEqualTo(session.user().organizationId());
            assertThat(a.type()).isEqualTo(CreditEntry.Type.GRANT);
            assertThat(a.creditsDelta()).isEqualTo(500);
            assertThat(a.idempotencyKey()).isEqualTo("grant:signup:" + session.user().organizationId());
        });
        failing.set(true);
        assertThat(granting.signUp(new SignUpCommand(new EmailAddress("h@x.io"), "password1", null)).await()
                .indefinitely().user().organizationId()).isNotNull();
        signUp("i@x.io", "password1", null); // no ledger, no grant: nothing to call
        assertThat(appended).hasSize(1);
    }

    @Test
    void signUpCanBeDisabled() {
        SignUpService disabled = new SignUpService(accounts, hasher, tokens, clock, false);
        assertThatThrownBy(() -> disabled.signUp(new SignUpCommand(new EmailAddress("c@x.io"), "password1", null))
                .await().indefinitely()).isInstanceOf(ForbiddenException.class).hasMessage("Signup is disabled");
    }

    @Test
    void logInWithTheRightPasswordAnyCaseOfEmail() {
        AuthSession created = signUp("ann@x.io", "password1", null);
        AuthSession session = logIn.logIn("  ANN@x.io ", "password1").await().indefinitely();
        assertThat(session.user().id()).isEqualTo(created.user().id());
        assertThat(session.token()).isEqualTo("token-for-" + created.user().id());
    }

    @Test
    void everyMismatchGetsTheSameAnswerAndUnknownEmailsStillCostAHashCheck() {
        signUp("ann@x.io", "password1", null);
        assertThatThrownBy(() -> logIn.logIn("ann@x.io", "wrong-password").await().indefinitely())
                .isInstanceOf(AuthenticationException.class).hasMessage("Invalid email or password");
        hasher.checkedHashes.clear();
        assertThatThrownBy(() -> logIn.logIn("nobody@x.io", "password1").await().indefinitely())
                .hasMessage("Invalid email or password");
        assertThat(hasher.checkedHashes).containsExactly((String) null);
        assertThatThrownBy(() -> logIn.logIn("not-an-email", "password1").await().indefinitely())
                .hasMessage("Invalid email or password");
    }
}
