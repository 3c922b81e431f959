package dev.voiceagent.domain.servicekey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.apikey.ApiKeySecret;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class ServiceKeyTest {

    private static final Instant T0 = Instant.parse("2026-11-23T10:00:00Z");

    @Test
    void aServiceKeyExpiresAndCannotBeReactivatedOnceExpired() {
        ApiKeySecret secret = ApiKeySecret.generateServiceKey(new SecureRandom());
        assertThat(secret.value()).startsWith("dgs_").hasSize(ApiKeySecret.LENGTH);
        assertThat(ApiKeySecret.looksLikeKey(secret.value())).isTrue();
        ServiceKey key = ServiceKey.issue(1, 2, " runtime ", 30, secret, T0);
        assertThat(key.name()).isEqualTo("runtime");
        assertThat(key.expiresAt()).isEqualTo(T0.plus(Duration.ofDays(30)));
        assertThat(key.usable(T0.plus(Duration.ofDays(29)))).isTrue();
        assertThat(key.usable(T0.plus(Duration.ofDays(30)))).isFalse();
        ServiceKey archived = key.archive(T0.plusSeconds(5));
        assertThat(archived.usable(T0.plusSeconds(6))).isFalse();
        assertThat(archived.reactivate(T0.plusSeconds(7)).usable(T0.plusSeconds(8))).isTrue();
        assertThatThrownBy(() -> archived.reactivate(T0.plus(Duration.ofDays(31)))).hasMessageContaining("expired");
        assertThat(ServiceKey.issue(1, 2, "d", null, ApiKeySecret.generateServiceKey(new SecureRandom()), T0).expiresAt())
                .isEqualTo(T0.plus(Duration.ofDays(90)));
        assertThatThrownBy(() -> ServiceKey.issue(1, 2, "d", 366, ApiKeySecret.generateServiceKey(new SecureRandom()), T0))
                .hasMessageContaining("expires_in_days");
        assertThatThrownBy(() -> ServiceKey.issue(1, 2, "d", 0, ApiKeySecret.generateServiceKey(new SecureRandom()), T0))
                .hasMessageContaining("expires_in_days");
    }
}
