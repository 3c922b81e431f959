package dev.voiceagent.adapters.telephony.vonage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Instant;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** Vonage's application token (RS256) and its signed webhooks' (HS256, payload_hash). */
class VonageJwtTest {

    private static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    private static final String BODY = "{\"uuid\":\"u1\",\"status\":\"answered\"}";

    @Test
    void theApplicationTokenIsRs256WithItsClaimsAndVerifiesWithThePublicKey() throws Exception {
        KeyPair pair = KeyPairGenerator.getInstance("RSA").generateKeyPair();
        String pem = "-----BEGIN PRIVATE KEY-----\n" + Base64.getMimeEncoder().encodeToString(pair.getPrivate()
                .getEncoded()) + "\n-----END PRIVATE KEY-----\n";
        String token = VonageJwt.application("app-1", VonageJwt.privateKey(pem), NOW);
        String[] parts = token.split("\\.");
        JsonObject header = new JsonObject(new String(Base64.getUrlDecoder().decode(parts[0]), StandardCharsets.UTF_8));
        JsonObject claims = new JsonObject(new String(Base64.getUrlDecoder().decode(parts[1]), StandardCharsets.UTF_8));
        assertThat(header.getString("alg")).isEqualTo("RS256");
        assertThat(claims.getString("application_id")).isEqualTo("app-1");
        assertThat(claims.getLong("iat")).isEqualTo(NOW.getEpochSecond());
        assertThat(claims.getLong("exp")).isGreaterThan(NOW.getEpochSecond());
        assertThat(claims.getString("jti")).isNotBlank()
                .isNotEqualTo(new JsonObject(new String(Base64.getUrlDecoder().decode(VonageJwt.application("app-1",
                        VonageJwt.privateKey(pem), NOW).split("\\.")[1]), StandardCharsets.UTF_8)).getString("jti"));
        Signature rsa = Signature.getInstance("SHA256withRSA");
        rsa.initVerify(pair.getPublic());
        rsa.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        assertThat(rsa.verify(Base64.getUrlDecoder().decode(parts[2]))).isTrue();
    }

    @Test
    void aKeyInAnotherFormIsRefusedWithWhatVonageGives() {
        assertThatThrownBy(() -> VonageJwt.privateKey("-----BEGIN RSA PRIVATE KEY-----\nMIIB\n-----END RSA PRIVATE KEY-----"))
                .hasMessageContaining("PKCS#8");
        assertThatThrownBy(() -> VonageJwt.privateKey("-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----"))
                .hasMessageContaining("cannot be read");
    }

    @Test
    void aSignedWebhookIsTheAccountsForItsBodyAndNothingElse() {
        String token = "Bearer " + VonageJwt.webhook("secret", "key-1", BODY, NOW);
        assertThat(VonageJwt.valid(token, "secret", "key-1", BODY, NOW)).isTrue();
        assertThat(VonageJwt.valid(token, "secret", "key-1", BODY, NOW.plusSeconds(3_600))).as("no exp: iat only")
                .isTrue();
        assertThat(VonageJwt.valid(token, "other", "key-1", BODY, NOW)).as("another secret").isFalse();
        assertThat(VonageJwt.valid(token, "secret", "key-2", BODY, NOW)).as("another account").isFalse();
        assertThat(VonageJwt.valid(token, "secret", "key-1", BODY.replace("answered", "completed"), NOW))
                .as("another body").isFalse();
        assertThat(VonageJwt.valid(token, "secret", "key-1", BODY, NOW.minusSeconds(3_600)))
                .as("issued an hour in the future").isFalse();
        assertThat(VonageJwt.valid(null, "secret", "key-1", BODY, NOW)).isFalse();
        assertThat(VonageJwt.valid(token, null, "key-1", BODY, NOW)).as("no secret: fails closed").isFalse();
        String bodiless = "Bearer " + VonageJwt.webhook("secret", "key-1", "", NOW);
        assertThat(VonageJwt.valid(bodiless, "secret", "key-1", BODY, NOW)).as("a token of no body fits none")
                .isFalse();
    }

    @Test
    void anUnsignedOrOtherwiseSignedTokenIsRefused() {
        String[] parts = VonageJwt.webhook("secret", "key-1", BODY, NOW).split("\\.");
        String none = Base64.getUrlEncoder().withoutPadding().encodeToString("{\"alg\":\"none\"}"
                .getBytes(StandardCharsets.UTF_8));
        assertThat(VonageJwt.valid("Bearer " + none + "." + parts[1] + ".", "secret", "key-1", BODY, NOW)).isFalse();
        assertThat(VonageJwt.valid("Bearer " + parts[0] + "." + parts[1] + ".AAAA", "secret", "key-1", BODY, NOW))
                .isFalse();
        assertThat(VonageJwt.valid("Bearer not-a-token", "secret", "key-1", BODY, NOW)).isFalse();
        assertThat(VonageResource.isVonage("Bearer " + String.join(".", parts))).isTrue();
        assertThat(VonageResource.isVonage("Bearer abc")).isFalse();
    }
}
