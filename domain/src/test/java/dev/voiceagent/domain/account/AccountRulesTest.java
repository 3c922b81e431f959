package dev.voiceagent.domain.account;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AccountRulesTest {

    @Test
    void emailIsTrimmedAndLowerCasedSoUniquenessIsCaseInsensitive() {
        assertThat(new EmailAddress("  Ann.Lee@Example.COM ").value()).isEqualTo("ann.lee@example.com");
        assertThat(new EmailAddress("A@x.io")).isEqualTo(new EmailAddress("a@X.IO"));
    }

    @Test
    void malformedEmailsAreRefused() {
        for (String bad : new String[] {null, "", "plain", "a@b", "a b@c.io", "@x.io"}) {
            assertThatThrownBy(() -> new EmailAddress(bad)).as(String.valueOf(bad)).isInstanceOf(DomainRuleViolation.class);
        }
    }

    @Test
    void passwordsNeedEightCharactersAndAtMost72Bytes() {
        assertThatThrownBy(() -> PasswordPolicy.check("1234567")).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> PasswordPolicy.check(null)).isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> PasswordPolicy.check("é".repeat(40))).isInstanceOf(DomainRuleViolation.class);
        PasswordPolicy.check("12345678");
        PasswordPolicy.check("x".repeat(72));
    }

    @Test
    void signUpCreatesAProviderIdAndItsOrganizationDerivesFromIt() {
        Instant now = Instant.ofEpochSecond(1_800_000_000L);
        UUID id = UUID.fromString("00000000-0000-0000-0000-000000000001");
        User user = User.signUp(new EmailAddress("a@x.io"), " ", "hash", now, id);
        assertThat(user.providerId()).isEqualTo("oss_1800000000_00000000-0000-0000-0000-000000000001");
        assertThat(user.name()).isNull();
        assertThat(user.superuser()).isFalse();
        assertThat(Organization.forNewUser(user.providerId(), now).providerId()).isEqualTo("org_" + user.providerId());
    }
}
