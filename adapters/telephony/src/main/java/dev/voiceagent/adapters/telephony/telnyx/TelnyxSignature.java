package dev.voiceagent.adapters.telephony.telnyx;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.Signature;
import java.security.spec.X509EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Telnyx webhook signatures: Ed25519 over "{telnyx-timestamp}|{raw body}" with the account's public
 * key (base64 of the raw 32 bytes). Timestamps older or newer than the tolerance are refused, so a
 * captured event cannot be replayed later. Anything missing or malformed fails closed.
 */
public final class TelnyxSignature {

    /** DER prefix of an Ed25519 SubjectPublicKeyInfo; the raw 32-byte key follows it. */
    private static final byte[] X509_PREFIX = HexFormat.of().parseHex("302a300506032b6570032100");

    private TelnyxSignature() {
    }

    public static boolean valid(String publicKeyBase64, String timestamp, String body, String signatureBase64,
            Instant now, Duration tolerance) {
        if (publicKeyBase64 == null || timestamp == null || body == null || signatureBase64 == null) {
            return false;
        }
        try {
            long seconds = Long.parseLong(timestamp.strip());
            if (Math.abs(now.getEpochSecond() - seconds) > tolerance.toSeconds()) {
                return false;
            }
            Signature verifier = Signature.getInstance("Ed25519");
            verifier.initVerify(publicKey(publicKeyBase64));
            verifier.update((timestamp.strip() + "|" + body).getBytes(StandardCharsets.UTF_8));
            return verifier.verify(Base64.getDecoder().decode(signatureBase64.strip()));
        } catch (NumberFormatException | GeneralSecurityException e) {
            return false;
        } catch (IllegalArgumentException e) {
            return false; // bad base64
        }
    }

    static PublicKey publicKey(String base64) throws GeneralSecurityException {
        byte[] raw = Base64.getDecoder().decode(base64.strip());
        if (raw.length != 32) {
            throw new GeneralSecurityException("an Ed25519 public key has 32 bytes");
        }
        byte[] der = new byte[X509_PREFIX.length + raw.length];
        System.arraycopy(X509_PREFIX, 0, der, 0, X509_PREFIX.length);
        System.arraycopy(raw, 0, der, X509_PREFIX.length, raw.length);
        return KeyFactory.getInstance("Ed25519").generatePublic(new X509EncodedKeySpec(der));
    }
}
