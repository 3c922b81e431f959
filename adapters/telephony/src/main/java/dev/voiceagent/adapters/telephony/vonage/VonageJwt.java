package dev.voiceagent.adapters.telephony.vonage;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Vonage's two JSON Web Tokens:
 * <ul>
 * <li>the application's, which authenticates every Voice API request: RS256 with the application's private key (PKCS#8
 * PEM, as the dashboard generates it), claims application_id, iat, exp (15 minutes on) and a random jti;</li>
 * <li>a signed webhook's, in its {@code Authorization: Bearer}: HS256 with the account's signature secret, claims
 * iss "Vonage", api_key (the account's), iat, and payload_hash (SHA-256 of the body, hex) when there is a body.</li>
 * </ul>
 */
public final class VonageJwt {

    private static final Base64.Encoder URL = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder URL_DECODER = Base64.getUrlDecoder();
    /** How far a webhook's iat may be ahead of this clock, and its exp behind it. */
    static final Duration SKEW = Duration.ofMinutes(5);

    private VonageJwt() {
    }

    /** The private key of a PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"); an IllegalArgumentException otherwise. */
    public static PrivateKey privateKey(String pem) {
        if (pem == null || !pem.contains("-----BEGIN PRIVATE KEY-----")) {
            throw new IllegalArgumentException("The Vonage private key is not a PKCS#8 PEM key (-----BEGIN PRIVATE"
                    + " KEY-----), as the Vonage dashboard generates it");
        }
        String base64 = pem.replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "").replaceAll("\\s", "");
        try {
            return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder()
                    .decode(base64)));
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalArgumentException("The Vonage private key cannot be read as an RSA key", e);
        }
    }

    /** The application's token for one Voice API request. */
    static String application(String applicationId, PrivateKey key, Instant now) {
        JsonObject claims = new JsonObject().put("application_id", applicationId).put("iat", now.getEpochSecond())
                .put("exp", now.plus(Duration.ofMinutes(15)).getEpochSecond()).put("jti", UUID.randomUUID().toString());
        String signed = encode(new JsonObject().put("alg", "RS256").put("typ", "JWT")) + "." + encode(claims);
        try {
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(key);
            rsa.update(signed.getBytes(StandardCharsets.US_ASCII));
            return signed + "." + URL.encodeToString(rsa.sign());
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("The Vonage private key cannot sign", e);
        }
    }

    /** A signed webhook's token, as Vonage makes it (for tests and the benchmark's callers). */
    public static String webhook(String secret, String apiKey, String body, Instant now) {
        JsonObject claims = new JsonObject().put("iat", now.getEpochSecond()).put("jti", UUID.randomUUID().toString())
                .put("iss", "Vonage").put("api_key", apiKey);
        if (body != null && !body.isEmpty()) {
            claims.put("payload_hash", sha256(body));
        }
        String signed = encode(new JsonObject().put("alg", "HS256").put("typ", "JWT")) + "." + encode(claims);
        return signed + "." + URL.encodeToString(hmac(secret, signed));
    }

    /**
     * Whether {@code authorization} ("Bearer ...") is Vonage's signature of {@code body} with {@code secret} for the
     * account {@code apiKey}: HS256 only, iss Vonage, the account's api_key, the body's payload_hash where the token has
     * one (a token with none fits no body), iat not ahead of now and exp (if any) not past, by {@link #SKEW}.
     */
    public static boolean valid(String authorization, String secret, String apiKey, String body, Instant now) {
        if (authorization == null || secret == null || secret.isEmpty()
                || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        String[] parts = authorization.substring(7).strip().split("\\.");
        if (parts.length != 3) {
            return false;
        }
        try {
            JsonObject header = new JsonObject(new String(URL_DECODER.decode(parts[0]), StandardCharsets.UTF_8));
            if (!"HS256".equals(header.getString("alg"))) {
                return false;
            }
            byte[] expected = hmac(secret, parts[0] + "." + parts[1]);
            if (!MessageDigest.isEqual(expected, URL_DECODER.decode(parts[2]))) {
                return false;
            }
            JsonObject claims = new JsonObject(new String(URL_DECODER.decode(parts[1]), StandardCharsets.UTF_8));
            if (!"Vonage".equals(claims.getString("iss")) || apiKey != null && !apiKey.equals(claims.getString("api_key"))) {
                return false;
            }
            String hash = claims.getString("payload_hash");
            boolean hasBody = body != null && !body.isEmpty();
            if (hash == null ? hasBody : !hash.equalsIgnoreCase(sha256(hasBody ? body : ""))) {
                return false;
            }
            Long iat = claims.getLong("iat");
            Long exp = claims.getLong("exp");
            return (iat == null || Instant.ofEpochSecond(iat).isBefore(now.plus(SKEW)))
                    && (exp == null || Instant.ofEpochSecond(exp).isAfter(now.minus(SKEW)));
        } catch (IllegalArgumentException | DecodeException | ClassCastException e) {
            return false;
        }
    }

    /** The claims of a bearer token, unverified (which account's a webhook says it is), or null. */
    static JsonObject unverifiedClaims(String authorization) {
        if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return null;
        }
        String[] parts = authorization.substring(7).strip().split("\\.");
        try {
            return parts.length == 3 ? new JsonObject(new String(URL_DECODER.decode(parts[1]), StandardCharsets.UTF_8))
                    : null;
        } catch (IllegalArgumentException | DecodeException e) {
            return null;
        }
    }

    private static String encode(JsonObject json) {
        return URL.encodeToString(json.encode().getBytes(StandardCharsets.UTF_8));
    }

    private static String sha256(String body) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(body.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("SHA-256 is required by every Java platform", e);
        }
    }

    private static byte[] hmac(String secret, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required by every Java platform", e);
        }
    }
}
