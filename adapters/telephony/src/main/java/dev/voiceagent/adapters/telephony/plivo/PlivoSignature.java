package dev.voiceagent.adapters.telephony.plivo;

import dev.voiceagent.adapters.telephony.FormBody;
import java.net.URI;
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
 * The signatures Plivo and Vobiz put on their webhooks, HMAC-SHA256 with the account's auth token, base64:
 * <ul>
 * <li>Plivo's X-Plivo-Signature-V3 (as its SDKs' {@code validate_v3_signature} computes it for a POST): the URL
 * without its query, then {@code ?} and the query's parameters sorted ({@code k=v&k=v}) and a {@code .} when both a
 * query and a body are present, then the body's parameters sorted by name, each name followed by its values (sorted),
 * then {@code .} and the X-Plivo-Signature-V3-Nonce. The header may hold several signatures, comma-separated (one per
 * auth token of the account); one must match.</li>
 * <li>Vobiz's X-Vobiz-Signature-V3: the URL without its query, {@code .}, the nonce; its V2: the same without the
 * dot.</li>
 * </ul>
 * Compared in constant time; no token, no signature or no nonce fails closed.
 */
public final class PlivoSignature {

    private PlivoSignature() {
    }

    /** What Plivo signs for a POST of {@code params} (a form body) to {@code url}, before the nonce. */
    static String plivoPayload(String url, Map<String, List<String>> params) {
        URI uri = URI.create(url);
        StringBuilder out = new StringBuilder(base(uri));
        Map<String, List<String>> query = new TreeMap<>();
        if (uri.getRawQuery() != null) {
            for (var e : FormBody.parse(uri.getRawQuery()).entrySet()) {
                query.put(e.getKey(), e.getValue());
            }
        }
        StringBuilder q = new StringBuilder();
        for (var e : query.entrySet()) {
            List<String> values = new ArrayList<>(e.getValue());
            values.sort(null);
            for (String value : values) {
                q.append(q.isEmpty() ? "" : "&").append(e.getKey()).append('=').append(value);
            }
        }
        if (!q.isEmpty() || !params.isEmpty()) {
            out.append('?').append(q);
        }
        if (!q.isEmpty() && !params.isEmpty()) {
            out.append('.');
        }
        for (var e : new TreeMap<>(params).entrySet()) {
            List<String> values = new ArrayList<>(e.getValue());
            values.sort(null);
            for (String value : values) {
                out.append(e.getKey()).append(value);
            }
        }
        return out.toString();
    }

    private static String base(URI uri) {
        return uri.getScheme() + "://" + uri.getRawAuthority() + (uri.getRawPath() == null ? "" : uri.getRawPath());
    }

    /** Plivo's V3 signature of a POST (see the class). */
    public static String plivo(String authToken, String url, Map<String, List<String>> params, String nonce) {
        return hmac(authToken, plivoPayload(url, params) + "." + nonce);
    }

    /** Vobiz's signature: V3 over the base URL, a dot and the nonce; V2 without the dot. */
    public static String vobiz(String authToken, String url, String nonce, boolean v3) {
        return hmac(authToken, base(URI.create(url)) + (v3 ? "." : "") + nonce);
    }

    public static boolean validPlivo(String authToken, String url, Map<String, List<String>> params, String signature,
            String nonce) {
        if (missing(authToken) || missing(signature) || missing(nonce)) {
            return false;
        }
        return matches(plivo(authToken, url, params, nonce), signature);
    }

    public static boolean validVobiz(String authToken, String url, String signature, String nonce, boolean v3) {
        if (missing(authToken) || missing(signature) || missing(nonce)) {
            return false;
        }
        return matches(vobiz(authToken, url, nonce, v3), signature);
    }

    private static boolean matches(String expected, String header) {
        byte[] want = expected.getBytes(StandardCharsets.US_ASCII);
        boolean any = false;
        for (String candidate : header.split(",")) {
            any |= MessageDigest.isEqual(want, candidate.strip().getBytes(StandardCharsets.US_ASCII));
        }
        return any;
    }

    private static boolean missing(String value) {
        return value == null || value.isBlank();
    }

    private static String hmac(String key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(data.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is required by every Java platform", e);
        }
    }
}
