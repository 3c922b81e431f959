package dev.voiceagent.adapters.storage;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HMAC-SHA256 over method, key, expiry and constraints: the local store's signed URLs. */
public final class UrlSigner {

    private final SecretKeySpec key;

    public UrlSigner(byte[] key) {
        if (key.length < 32) {
            throw new IllegalArgumentException("the URL signing key must be at least 32 bytes");
        }
        this.key = new SecretKeySpec(key, "HmacSHA256");
    }

    public String sign(String method, String objectKey, long expires, String extra) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            String data = method + "\n" + objectKey + "\n" + expires + "\n" + extra;
            return HexFormat.of().formatHex(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required by every Java platform", e);
        }
    }

    /** Valid when unexpired and the signature matches (constant time). */
    public boolean valid(String method, String objectKey, long expires, String extra, String signature, Instant now) {
        if (signature == null || now.getEpochSecond() > expires) {
            return false;
        }
        return MessageDigest.isEqual(sign(method, objectKey, expires, extra).getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.US_ASCII));
    }
}
