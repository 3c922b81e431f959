package dev.voiceagent.adapters.storage;

import dev.voiceagent.application.workflow.ArtifactLinks;
import dev.voiceagent.domain.workflow.RunArtifact;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Tokens "base64url(run.artifact.expiry).base64url(HMAC-SHA256)" with the installation's link key: nothing is
 * stored, every replica can check them, and changing any part breaks the signature.
 */
public final class SignedArtifactLinks implements ArtifactLinks {

    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();
    private final SecretKeySpec key;

    public SignedArtifactLinks(byte[] key) {
        if (key.length < 32) {
            throw new IllegalArgumentException("the link signing key must be at least 32 bytes");
        }
        this.key = new SecretKeySpec(key, "HmacSHA256");
    }

    @Override
    public String token(long runId, RunArtifact artifact, Instant expiresAt) {
        String payload = runId + "." + artifact.wireName() + "." + expiresAt.getEpochSecond();
        return ENCODER.encodeToString(payload.getBytes(StandardCharsets.UTF_8)) + "." + ENCODER.encodeToString(mac(payload));
    }

    @Override
    public Optional<Link> verify(String token, Instant now) {
        if (token == null || token.length() > 512) {
            return Optional.empty();
        }
        int dot = token.indexOf('.');
        if (dot <= 0 || dot != token.lastIndexOf('.')) {
            return Optional.empty();
        }
        try {
            String payload = new String(DECODER.decode(token.substring(0, dot)), StandardCharsets.UTF_8);
            byte[] signature = DECODER.decode(token.substring(dot + 1));
            if (!MessageDigest.isEqual(mac(payload), signature)) {
                return Optional.empty();
            }
            String[] parts = payload.split("\\.");
            if (parts.length != 3 || Long.parseLong(parts[2]) < now.getEpochSecond()) {
                return Optional.empty();
            }
            return RunArtifact.fromWireName(parts[1]).map(a -> new Link(Long.parseLong(parts[0]), a));
        } catch (IllegalArgumentException malformed) {
            return Optional.empty();
        }
    }

    private byte[] mac(String payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(payload.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required by every Java platform", e);
        }
    }
}
