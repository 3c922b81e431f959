package dev.voiceagent.domain.apikey;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ApiKeySecretTest {

    @Test
    void generatedKeysAreDgrPlus43UrlSafeCharactersAndUnique() {
        SecureRandom random = new SecureRandom();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            ApiKeySecret secret = ApiKeySecret.generate(random);
            assertThat(secret.value()).hasSize(47).startsWith("dgr_").matches("dgr_[A-Za-z0-9_-]{43}");
            assertThat(seen.add(secret.value())).isTrue();
        }
    }

    @Test
    void hashIsLowerHexSha256OfTheWholeKey() {
        ApiKeySecret secret = new ApiKeySecret("dgr_" + "A".repeat(43));
        // computed independently: printf 'dgr_AAA...A' | sha256sum
        assertThat(secret.hash()).isEqualTo("5e44fff5e84c311f405e588e8f50fd6bbb6da04879344401ab706b9542550152");
        assertThat(secret.hash()).isNotEqualTo(new ApiKeySecret("dgr_" + "B".repeat(43)).hash());
    }

    @Test
    void displayPrefixIsTheFirstEightCharacters() {
        assertThat(new ApiKeySecret("dgr_abcd" + "x".repeat(39)).displayPrefix()).isEqualTo("dgr_abcd");
    }

    @Test
    void shapeCheckRefusesAnythingElse() {
        assertThat(ApiKeySecret.looksLikeKey(null)).isFalse();
        assertThat(ApiKeySecret.looksLikeKey("dgr_short")).isFalse();
        assertThat(ApiKeySecret.looksLikeKey("dg_" + "a".repeat(44))).isFalse();
        assertThat(ApiKeySecret.looksLikeKey("dgr_" + "a".repeat(42) + "=")).isFalse();
        assertThat(ApiKeySecret.looksLikeKey("dgr_" + "a".repeat(42) + "-")).isTrue();
        assertThatThrownBy(() -> new ApiKeySecret("garbage")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void toStringNeverRevealsTheKey() {
        ApiKeySecret secret = ApiKeySecret.generate(new SecureRandom());
        assertThat(secret.toString()).doesNotContain(secret.value().substring(8));
    }
}
