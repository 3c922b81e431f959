package dev.voiceagent.adapters.telephony.turn;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.turn.TurnCredentials;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CoturnCredentialsTest {

    /** Instant such that expiry (now + 24 h) is 1764000000. */
    private static final Instant NOW = Instant.ofEpochSecond(1_764_000_000L - 86_400);

    @Test
    void thePasswordIsCoturnsHmacSha1OfTheUsernameAsComputedElsewhere() {
        // expected values computed with Python's hmac module and with openssl, not with this code:
        //   base64(hmac.new(b"turn-secret-1", b"1764000000:42", sha1).digest())
        CoturnCredentials coturn = new CoturnCredentials(Optional.of("turn-secret-1"), Optional.of("turn.example.com"),
                3478, Optional.of(5349), Duration.ofHours(24), false);
        TurnCredentials issued = coturn.issue("42", NOW).orElseThrow();
        assertThat(issued.username()).isEqualTo("1764000000:42");
        assertThat(issued.password()).isEqualTo("Mtbtwpjc5MJo4Vo/P7jOLcbe8Uk=");
        assertThat(issued.ttl()).isEqualTo(86_400);
        assertThat(issued.uris()).containsExactly("turn:turn.example.com:3478", "turn:turn.example.com:3478?transport=tcp",
                "turns:turn.example.com:5349", "turns:turn.example.com:5349?transport=tcp");
        assertThat(coturn.issue("embed:emb_session_abcdef", NOW).orElseThrow().password())
                .isEqualTo("uCgFZFGD6XCcjZVb4oZk3k18UC8=");
    }

    @Test
    void withoutASecretOrAHostThereAreNoCredentialsAndWithoutTlsNoTurnsUri() {
        assertThat(new CoturnCredentials(Optional.empty(), Optional.of("h"), 3478, Optional.empty(), Duration.ofHours(1), false)
                .issue("1", NOW)).isEmpty();
        assertThat(new CoturnCredentials(Optional.of("s"), Optional.empty(), 3478, Optional.empty(), Duration.ofHours(1), false)
                .issue("1", NOW)).isEmpty();
        assertThat(new CoturnCredentials(Optional.of("s"), Optional.of("h"), 3478, Optional.empty(), Duration.ofHours(1), false)
                .issue("1", NOW).orElseThrow().uris()).containsExactly("turn:h:3478", "turn:h:3478?transport=tcp");
    }
}
