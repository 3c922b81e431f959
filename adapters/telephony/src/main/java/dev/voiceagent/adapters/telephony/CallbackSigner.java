package dev.voiceagent.adapters.telephony;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256 signatures of this service's own callbacks (the simulator's), checked in constant time. */
public final class CallbackSigner {

    private final SecretKeySpec key;

    public CallbackSigner(byte[] key) {
        if (key.length < 32) {
            throw new IllegalArgumentException("the callback signing key must be at least 32 bytes");
        }
        this.key = new SecretKeySpec(key, "HmacSHA256");
    }

    public String sign(String body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return HexFormat.of().formatHex(mac.doFinal(body.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required by every Java platform", e);
        }
    }

    /** False for a missing, malformed or wrong signature. */
    public boolean verify(String body, String signature) {
        if (signature == null || body == null) {
            return false;
        }
        return MessageDigest.isEqual(sign(body).getBytes(StandardCharsets.US_ASCII),
                signature.strip().toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
    }
}
