package dev.voiceagent.adapters.payments;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Stripe-Signature: t and v1 = HMAC-SHA256 over "t.payload" with the endpoint's secret, 5 minutes' tolerance. */
class StripeSignatureTest {

    private static final String SECRET = "whsec_abc";
    private static final byte[] PAYLOAD = "{\"id\":\"evt_1\"}".getBytes(StandardCharsets.UTF_8);
    private static final Duration TOLERANCE = Duration.ofMinutes(5);
    private static final Instant NOW = Instant.ofEpochSecond(1_800_000_000L);

    @Test
    void stripesOwnDocumentedComputationMatches() throws Exception {
        javax.crypto.Mac mac = javax.crypto.Mac.getInstance("HmacSHA256");
        mac.init(new javax.crypto.spec.SecretKeySpec(SECRET.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
        String expected = java.util.HexFormat.of().formatHex(
                mac.doFinal(("1800000000." + new String(PAYLOAD, StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8)));
        assertThat(StripeSignature.header(SECRET, PAYLOAD, 1_800_000_000L)).isEqualTo("t=1800000000,v1=" + expected);
    }

    @Test
    void aValidSignatureWithinTheTolerancePasses() {
        String header = StripeSignature.header(SECRET, PAYLOAD, NOW.getEpochSecond() - 299);
        assertThat(StripeSignature.check(SECRET, PAYLOAD, header, NOW, TOLERANCE)).isNull();
    }

    @Test
    void theWrongSecretAStaleTimestampAndAFutureOneAreRefused() {
        assertThat(StripeSignature.check(SECRET, PAYLOAD, StripeSignature.header("whsec_other", PAYLOAD,
                NOW.getEpochSecond()), NOW, TOLERANCE)).contains("No signatures found");
        assertThat(StripeSignature.check(SECRET, PAYLOAD, StripeSignature.header(SECRET, PAYLOAD,
                NOW.getEpochSecond() - 301), NOW, TOLERANCE)).contains("tolerance");
        assertThat(StripeSignature.check(SECRET, PAYLOAD, StripeSignature.header(SECRET, PAYLOAD,
                NOW.getEpochSecond() + 301), NOW, TOLERANCE)).contains("tolerance");
    }

    @Test
    void anyOfSeveralV1SignaturesMayMatchAndOtherSchemesAreIgnored() {
        String good = StripeSignature.header(SECRET, PAYLOAD, NOW.getEpochSecond());
        String header = "t=" + NOW.getEpochSecond() + ",v1=deadbeef," + good.substring(good.indexOf("v1="))
                + ",v0=ignored";
        assertThat(StripeSignature.check(SECRET, PAYLOAD, header, NOW, TOLERANCE)).isNull();
    }

    @Test
    void aMissingOrMalformedHeaderIsRefused() {
        assertThat(StripeSignature.check(SECRET, PAYLOAD, null, NOW, TOLERANCE)).contains("Missing");
        assertThat(StripeSignature.check(SECRET, PAYLOAD, "v1=abc", NOW, TOLERANCE)).contains("Malformed");
        assertThat(StripeSignature.check(SECRET, PAYLOAD, "t=soon,v1=abc", NOW, TOLERANCE)).contains("Malformed");
    }
}
