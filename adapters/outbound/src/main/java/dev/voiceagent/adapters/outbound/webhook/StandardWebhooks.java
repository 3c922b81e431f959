package dev.voiceagent.adapters.outbound.webhook;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Base64;
import java.util.List;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Standard Webhooks signing (standardwebhooks.com): the signed content is "{webhook-id}.{webhook-timestamp}.{body}",
 * the key the base64 part of a "whsec_" secret, HMAC-SHA256, and webhook-signature lists "v1,{base64}" for each
 * secret, separated by spaces (a receiver accepts any).
 */
public final class StandardWebhooks {

    private StandardWebhooks() {
    }

    public static String signature(String secret, String messageId, long timestamp, String body) {
        String key = secret.startsWith("whsec_") ? secret.substring("whsec_".length()) : secret;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(key), "HmacSHA256"));
            byte[] digest = mac.doFinal((messageId + "." + timestamp + "." + body).getBytes(StandardCharsets.UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(digest);
        } catch (GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("unusable webhook secret", e);
        }
    }

    public static String header(List<String> secrets, String messageId, long timestamp, String body) {
        return secrets.stream().map(s -> signature(s, messageId, timestamp, body)).collect(Collectors.joining(" "));
    }
}
