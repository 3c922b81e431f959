package dev.voiceagent.domain.apikey;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The raw value of an API key: {@code dgr_} followed by 43 URL-safe characters (32 random bytes,
 * base64url without padding), or of a service key, the same with {@code dgs_}. Only its SHA-256 hash
 * and an 8-character display prefix are stored.
 */
public record ApiKeySecret(String value) {

    public static final String PREFIX = "dgr_";
    public static final String SERVICE_PREFIX = "dgs_";
    public static final int RANDOM_BYTES = 32;
    public static final int LENGTH = PREFIX.length() + 43;
    public static final int DISPLAY_PREFIX_LENGTH = 8;

    public ApiKeySecret {
        if (!looksLikeKey(value)) {
            throw new IllegalArgumentException("not an API key");
        }
    }

    public static ApiKeySecret generate(SecureRandom random) {
        return generate(random, PREFIX);
    }

    public static ApiKeySecret generateServiceKey(SecureRandom random) {
        return generate(random, SERVICE_PREFIX);
    }

    private static ApiKeySecret generate(SecureRandom random, String prefix) {
        byte[] bytes = new byte[RANDOM_BYTES];
        random.nextBytes(bytes);
        return new ApiKeySecret(prefix + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes));
    }

    /** Whether this is a service key (dgs_) rather than an API key (dgr_). */
    public boolean serviceKey() {
        return value.startsWith(SERVICE_PREFIX);
    }

    /** A cheap shape check, so that garbage never costs a database round trip. */
    public static boolean looksLikeKey(String candidate) {
        if (candidate == null || candidate.length() != LENGTH
                || !candidate.startsWith(PREFIX) && !candidate.startsWith(SERVICE_PREFIX)) {
            return false;
        }
        for (int i = PREFIX.length(); i < candidate.length(); i++) {
            char c = candidate.charAt(i);
            boolean urlSafe = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
            if (!urlSafe) {
                return false;
            }
        }
        return true;
    }

    /** Lower-case hex SHA-256 of the whole key, the only form kept at rest. */
    public String hash() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.US_ASCII));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    public String displayPrefix() {
        return value.substring(0, DISPLAY_PREFIX_LENGTH);
    }

    @Override
    public String toString() {
        return displayPrefix() + "…";
    }
}
