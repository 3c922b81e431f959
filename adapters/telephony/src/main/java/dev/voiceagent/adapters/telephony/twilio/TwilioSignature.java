package dev.voiceagent.adapters.telephony.twilio;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Twilio's X-Twilio-Signature: Base64(HMAC-SHA1(auth token, full URL + every POST parameter's name
 * and value, sorted by name)). Compared in constant time; no token or no signature fails closed.
 */
public final class TwilioSignature {

    private TwilioSignature() {
    }

    public static String compute(String authToken, String url, Map<String, List<String>> params) {
        StringBuilder data = new StringBuilder(url);
        for (Map.Entry<String, List<String>> param : new TreeMap<>(params).entrySet()) {
            List<String> values = new ArrayList<>(param.getValue());
            values.sort(null);
            for (String value : values) {
                data.append(param.getKey()).append(value);
            }
        }
        try {
            Mac mac = Mac.getInstance("HmacSHA1");
            mac.init(new SecretKeySpec(authToken.getBytes(StandardCharsets.UTF_8), "HmacSHA1"));
            return Base64.getEncoder().encodeToString(mac.doFinal(data.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA1 is required by every Java platform", e);
        }
    }

    public static boolean valid(String authToken, String url, Map<String, List<String>> params, String signature) {
        if (authToken == null || authToken.isEmpty() || signature == null || signature.isEmpty()) {
            return false;
        }
        return MessageDigest.isEqual(compute(authToken, url, params).getBytes(StandardCharsets.US_ASCII),
                signature.getBytes(StandardCharsets.US_ASCII));
    }
}
