package dev.voiceagent.adapters.telephony;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.adapters.telephony.telnyx.TelnyxEvents;
import dev.voiceagent.adapters.telephony.telnyx.TelnyxSignature;
import dev.voiceagent.domain.telephony.CallStatus;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class TelnyxSignatureTest {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    private static final Duration TOLERANCE = Duration.ofMinutes(5);
    private KeyPair keys;
    private String publicKey;

    @BeforeEach
    void keys() throws Exception {
        keys = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        byte[] encoded = keys.getPublic().getEncoded(); // X.509: the raw key is the last 32 bytes
        publicKey = Base64.getEncoder().encodeToString(Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length));
    }

    private String sign(String timestamp, String body) throws Exception {
        Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(keys.getPrivate());
        signer.update((timestamp + "|" + body).getBytes(StandardCharsets.UTF_8));
        return Base64.getEncoder().encodeToString(signer.sign());
    }

    @Test
    void aSignedEventVerifies() throws Exception {
        String ts = String.valueOf(NOW.getEpochSecond());
        String body = "{\"data\":{\"id\":\"e1\",\"event_type\":\"call.hangup\"}}";
        assertThat(TelnyxSignature.valid(publicKey, ts, body, sign(ts, body), NOW, TOLERANCE)).isTrue();
    }

    @Test
    void tamperedStaleForeignAndMalformedEventsAreRefused() throws Exception {
        String ts = String.valueOf(NOW.getEpochSecond());
        String body = "{\"data\":{\"id\":\"e1\"}}";
        String signature = sign(ts, body);
        assertThat(TelnyxSignature.valid(publicKey, ts, body.replace("e1", "e2"), signature, NOW, TOLERANCE)).isFalse();
        assertThat(TelnyxSignature.valid(publicKey, String.valueOf(NOW.getEpochSecond() + 1), body, signature, NOW,
                TOLERANCE)).isFalse();
        String old = String.valueOf(NOW.minusSeconds(301).getEpochSecond());
        assertThat(TelnyxSignature.valid(publicKey, old, body, sign(old, body), NOW, TOLERANCE)).isFalse();
        KeyPair other = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        byte[] encoded = other.getPublic().getEncoded();
        String otherKey = Base64.getEncoder().encodeToString(Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length));
        assertThat(TelnyxSignature.valid(otherKey, ts, body, signature, NOW, TOLERANCE)).isFalse();
        assertThat(TelnyxSignature.valid(null, ts, body, signature, NOW, TOLERANCE)).isFalse();
        assertThat(TelnyxSignature.valid(publicKey, null, body, signature, NOW, TOLERANCE)).isFalse();
        assertThat(TelnyxSignature.valid(publicKey, ts, body, "%%%", NOW, TOLERANCE)).isFalse();
        assertThat(TelnyxSignature.valid("c2hvcnQ=", ts, body, signature, NOW, TOLERANCE)).isFalse();
    }

    @Test
    void eventsAndHangupCausesMapToOurStatuses() {
        assertThat(TelnyxEvents.map("call.answered", null)).contains(CallStatus.IN_PROGRESS);
        assertThat(TelnyxEvents.map("call.hangup", "normal_clearing")).contains(CallStatus.COMPLETED);
        assertThat(TelnyxEvents.map("call.hangup", "busy")).contains(CallStatus.BUSY);
        assertThat(TelnyxEvents.map("call.hangup", "timeout")).contains(CallStatus.NO_ANSWER);
        assertThat(TelnyxEvents.map("call.hangup", "call_rejected")).contains(CallStatus.FAILED);
        assertThat(TelnyxEvents.map("call.hangup", "originator_cancel")).contains(CallStatus.CANCELED);
        assertThat(TelnyxEvents.map("call.speak.ended", null)).isEmpty();
    }
}
