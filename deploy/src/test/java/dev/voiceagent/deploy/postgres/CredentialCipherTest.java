package dev.voiceagent.deploy.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.adapters.postgres.shared.CredentialCipher;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class CredentialCipherTest {

    private final byte[] key = new byte[32];
    private final CredentialCipher cipher = new CredentialCipher(key);

    @Test
    void sealsWithAFreshIvAndOpensForTheSameOwner() {
        String a = cipher.seal("{\"auth_token\":\"secret\"}", "organization:1");
        String b = cipher.seal("{\"auth_token\":\"secret\"}", "organization:1");
        assertThat(a).startsWith("v1:").doesNotContain("secret").isNotEqualTo(b);
        assertThat(cipher.open(a, "organization:1")).isEqualTo("{\"auth_token\":\"secret\"}");
    }

    @Test
    void refusesAnotherOwnerAnotherKeyAndAnyTampering() {
        String sealed = cipher.seal("token", "organization:1");
        assertThatThrownBy(() -> cipher.open(sealed, "organization:2")).isInstanceOf(IllegalStateException.class);
        byte[] otherKey = new byte[32];
        otherKey[0] = 1;
        assertThatThrownBy(() -> new CredentialCipher(otherKey).open(sealed, "organization:1"))
                .isInstanceOf(IllegalStateException.class);
        byte[] raw = Base64.getDecoder().decode(sealed.substring(3));
        raw[raw.length - 1] ^= 1;
        String tampered = "v1:" + Base64.getEncoder().encodeToString(raw);
        assertThatThrownBy(() -> cipher.open(tampered, "organization:1")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> cipher.open("plain", "organization:1")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new CredentialCipher(new byte[16])).isInstanceOf(IllegalArgumentException.class);
    }
}
