package dev.voiceagent.domain.apikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.security.SecureRandom;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ApiKeyTest {

    private static final Instant T0 = Instant.parse("2026-11-21T10:00:00Z");

    private static ApiKey issued() {
        return ApiKey.issue(7, 3, "  ci key  ", ApiKeySecret.generate(new SecureRandom()), T0);
    }

    @Test
    void issuedKeyStoresHashAndPrefixButNotTheSecret() {
        ApiKeySecret secret = ApiKeySecret.generate(new SecureRandom());
        ApiKey key = ApiKey.issue(7, 3, "ci", secret, T0);
        assertThat(key.keyHash()).isEqualTo(secret.hash());
        assertThat(key.keyPrefix()).isEqualTo(secret.value().substring(0, 8));
        assertThat(key.toString()).doesNotContain(secret.value());
        assertThat(key.usable()).isTrue();
        assertThat(key.organizationId()).isEqualTo(7);
        assertThat(key.createdBy()).isEqualTo(3);
    }

    @Test
    void nameIsTrimmedAndMustNotBeBlankOrTooLong() {
        assertThat(issued().name()).isEqualTo("ci key");
        assertThatThrownBy(() -> ApiKey.issue(1, 1, "  ", ApiKeySecret.generate(new SecureRandom()), T0))
                .isInstanceOf(DomainRuleViolation.class);
        assertThatThrownBy(() -> ApiKey.issue(1, 1, "x".repeat(256), ApiKeySecret.generate(new SecureRandom()), T0))
                .isInstanceOf(DomainRuleViolation.class);
    }

    @Test
    void archiveRevokesAndKeepsTheFirstArchiveTime() {
        ApiKey archived = issued().archive(T0.plusSeconds(5));
        assertThat(archived.usable()).isFalse();
        assertThat(archived.active()).isFalse();
        assertThat(archived.archivedAt()).isEqualTo(T0.plusSeconds(5));
        assertThat(archived.archive(T0.plusSeconds(60))).isEqualTo(archived);
    }

    @Test
    void reactivateRestoresTheKey() {
        ApiKey again = issued().archive(T0).reactivate();
        assertThat(again.usable()).isTrue();
        assertThat(again.archivedAt()).isNull();
    }

    @Test
    void lastUseIsWrittenAtMostOncePerMinute() {
        ApiKey never = issued();
        assertThat(never.lastUseIsStale(T0)).isTrue();
        ApiKey used = new ApiKey(1L, 7, "k", "dgr_abcd", "h".repeat(64), true, 3L, T0, T0, null);
        assertThat(used.lastUseIsStale(T0.plusSeconds(59))).isFalse();
        assertThat(used.lastUseIsStale(T0.plusSeconds(60))).isTrue();
    }
}
