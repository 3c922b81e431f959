package dev.voiceagent.adapters.rest.auth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.voiceagent.application.auth.TokenClaims;
import dev.voiceagent.application.auth.TokenService;
import dev.voiceagent.domain.account.User;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** HS256 JSON Web Tokens with the claims sub (user id), email, iat and exp. Only HS256 is accepted. */
public class HmacJwtTokenService implements TokenService {

    private static final String HEADER = b64(("{\"alg\":\"HS256\",\"typ\":\"JWT\"}").getBytes(StandardCharsets.UTF_8));
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private final SecretKeySpec key;
    private final Duration lifetime;
    private final ObjectMapper json = new ObjectMapper();

    public HmacJwtTokenService(byte[] secret, Duration lifetime) {
        if (secret.length < 32) {
            throw new IllegalArgumentException("the token signing secret must be at least 32 bytes");
        }
        this.key = new SecretKeySpec(secret, "HmacSHA256");
        this.lifetime = lifetime;
    }

    @Override
    public String issue(User user, Instant now) {
        ObjectNode claims = json.createObjectNode()
                .put("sub", String.valueOf(user.id()))
                .put("email", user.email().value())
                .put("iat", now.getEpochSecond())
                .put("exp", now.plus(lifetime).getEpochSecond());
        String signingInput = HEADER + "." + b64(claims.toString().getBytes(StandardCharsets.UTF_8));
        return signingInput + "." + b64(sign(signingInput));
    }

    @Override
    public Optional<TokenClaims> verify(String token, Instant now) {
        try {
            String[] parts = token.split("\\.", -1);
            if (parts.length != 3) {
                return Optional.empty();
            }
            JsonNode header = json.readTree(DECODER.decode(parts[0]));
            if (!"HS256".equals(header.path("alg").asText())) {
                return Optional.empty();
            }
            byte[] expected = sign(parts[0] + "." + parts[1]);
            if (!MessageDigest.isEqual(expected, DECODER.decode(parts[2]))) {
                return Optional.empty();
            }
            JsonNode claims = json.readTree(DECODER.decode(parts[1]));
            long exp = claims.path("exp").asLong(0);
            long sub = Long.parseLong(claims.path("sub").asText(""));
            if (exp <= now.getEpochSecond()) {
                return Optional.empty();
            }
            return Optional.of(new TokenClaims(sub, claims.path("email").asText(null),
                    Instant.ofEpochSecond(claims.path("iat").asLong(0)), Instant.ofEpochSecond(exp)));
        } catch (IllegalArgumentException | IOException e) {
            return Optional.empty(); // malformed base64, JSON or subject
        }
    }

    private byte[] sign(String input) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(input.getBytes(StandardCharsets.US_ASCII));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required by every Java platform", e);
        }
    }

    private static String b64(byte[] bytes) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
