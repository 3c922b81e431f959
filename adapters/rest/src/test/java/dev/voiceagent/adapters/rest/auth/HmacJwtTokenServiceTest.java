package dev.voiceagent.adapters.rest.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.voiceagent.domain.account.EmailAddress;
import dev.voiceagent.domain.account.User;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class HmacJwtTokenServiceTest {

    private static final byte[] SECRET = "0123456789abcdef0123456789abcdef-test".getBytes(StandardCharsets.UTF_8);
    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private final HmacJwtTokenService tokens = new HmacJwtTokenService(SECRET, Duration.ofHours(720));
    private final User user = new User(42L, new EmailAddress("ann@x.io"), null, "oss_1_" + UUID.randomUUID(), 7L, "h",
            false, NOW);

    private static String decode(String part) {
        return new String(Base64.getUrlDecoder().decode(part), StandardCharsets.UTF_8);
    }

    @Test
    void issuesAnHs256TokenWithSubEmailIatAndExp() {
        String[] parts = tokens.issue(user, NOW).split("\\.");
        assertThat(parts).hasSize(3);
        assertThat(decode(parts[0])).contains("\"alg\":\"HS256\"");
        assertThat(decode(parts[1])).contains("\"sub\":\"42\"", "\"email\":\"ann@x.io\"",
                "\"iat\":" + NOW.getEpochSecond(), "\"exp\":" + NOW.plus(Duration.ofHours(720)).getEpochSecond());
    }

    @Test
    void verifiesItsOwnTokensUntilTheyExpire() {
        String token = tokens.issue(user, NOW);
        var claims = tokens.verify(token, NOW.plusSeconds(60)).orElseThrow();
        assertThat(claims.userId()).isEqualTo(42L);
        assertThat(claims.email()).isEqualTo("ann@x.io");
        assertThat(tokens.verify(token, NOW.plus(Duration.ofHours(720)))).isEmpty();
    }

    @Test
    void refusesTamperedForeignUnsignedAndMalformedTokens() {
        String token = tokens.issue(user, NOW);
        String[] parts = token.split("\\.");
        String otherSub = Base64.getUrlEncoder().withoutPadding().encodeToString(
                decode(parts[1]).replace("\"sub\":\"42\"", "\"sub\":\"1\"").getBytes(StandardCharsets.UTF_8));
        assertThat(tokens.verify(parts[0] + "." + otherSub + "." + parts[2], NOW)).isEmpty();
        HmacJwtTokenService other = new HmacJwtTokenService("another-secret-another-secret-another".getBytes(), Duration.ofHours(1));
        assertThat(tokens.verify(other.issue(user, NOW), NOW)).isEmpty();
        String none = Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}".getBytes());
        assertThat(tokens.verify(none + "." + parts[1] + ".", NOW)).isEmpty();
        for (String garbage : new String[] {"", "a.b", "a.b.c", "%%%.%%%.%%%", token + ".x"}) {
            assertThat(tokens.verify(garbage, NOW)).as(garbage).isEmpty();
        }
    }

    @Test
    void aShortSecretIsRefusedAtConstruction() {
        assertThatThrownBy(() -> new HmacJwtTokenService("short".getBytes(), Duration.ofHours(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
