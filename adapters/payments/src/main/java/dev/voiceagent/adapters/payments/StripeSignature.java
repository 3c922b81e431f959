package dev.voiceagent.adapters.payments;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Stripe-Signature verification as Stripe specifies it: the header "t=<unix seconds>,v1=<hex>[,v1=...]"; the
 * expected v1 is HMAC-SHA256 keyed by the endpoint's secret over "t.payload"; the timestamp must be within the
 * tolerance of now; signatures are compared in constant time and any v1 may match (secret rotation).
 */
public final class StripeSignature {

    private StripeSignature() {
    }

    /** null when the payload is authentic, else why not. */
    public static String check(String secret, byte[] payload, String header, Instant now, Duration tolerance) {
        if (header == null || header.isBlank()) {
            return "Missing Stripe-Signature header";
        }
        Long timestamp = null;
        List<String> signatures = new ArrayList<>();
        for (String part : header.split(",")) {
            int eq = part.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String key = part.substring(0, eq).strip();
            String value = part.substring(eq + 1).strip();
            if (key.equals("t")) {
                try {
                    timestamp = Long.parseLong(value);
                } catch (NumberFormatException e) {
                    return "Malformed Stripe-Signature header";
                }
            } else if (key.equals("v1")) {
                signatures.add(value);
            }
        }
        if (timestamp == null || signatures.isEmpty()) {
            return "Malformed Stripe-Signature header";
        }
        if (Math.abs(now.getEpochSecond() - timestamp) > tolerance.toSeconds()) {
            return "Timestamp outside the tolerance zone";
        }
        byte[] expected = HexFormat.of().formatHex(sign(secret, timestamp, payload)).getBytes(StandardCharsets.US_ASCII);
        boolean matched = false;
        for (String candidate : signatures) {
            matched |= MessageDigest.isEqual(expected, candidate.getBytes(StandardCharsets.US_ASCII));
        }
        return matched ? null : "No signatures found matching the expected signature for payload";
    }

    /** The header Stripe would send for the payload at the time (used by tests and local tooling). */
    public static String header(String secret, byte[] payload, long timestamp) {
        return "t=" + timestamp + ",v1=" + HexFormat.of().formatHex(sign(secret, timestamp, payload));
    }

    private static byte[] sign(String secret, long timestamp, byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            mac.update((timestamp + ".").getBytes(StandardCharsets.UTF_8));
            return mac.doFinal(payload);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
