package dev.voiceagent.adapters.storage.s3;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * AWS Signature Version 4 for S3: presigned URLs (query-string authentication, unsigned payload)
 * and the Authorization header for the service's own requests.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-authenticating-requests.html
 */
final class SigV4 {

    static final String ALGORITHM = "AWS4-HMAC-SHA256";
    static final String UNSIGNED_PAYLOAD = "UNSIGNED-PAYLOAD";
    static final String EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    private static final DateTimeFormatter AMZ_DATE = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'")
            .withZone(ZoneOffset.UTC);
    private static final DateTimeFormatter DATE = DateTimeFormatter.ofPattern("yyyyMMdd").withZone(ZoneOffset.UTC);

    private final String accessKey;
    private final String secretKey;
    private final String region;

    SigV4(String accessKey, String secretKey, String region) {
        this.accessKey = accessKey;
        this.secretKey = secretKey;
        this.region = region;
    }

    /** A presigned URL: {@code extraQuery} (e.g. response-content-disposition) is signed with it. */
    String presign(String method, URI endpoint, String canonicalPath, Map<String, String> extraQuery, Instant now,
            long expiresSeconds) {
        String scope = DATE.format(now) + "/" + region + "/s3/aws4_request";
        SortedMap<String, String> query = new TreeMap<>();
        extraQuery.forEach((k, v) -> query.put(encode(k), encode(v)));
        query.put("X-Amz-Algorithm", ALGORITHM);
        query.put("X-Amz-Credential", encode(accessKey + "/" + scope));
        query.put("X-Amz-Date", AMZ_DATE.format(now));
        query.put("X-Amz-Expires", String.valueOf(expiresSeconds));
        query.put("X-Amz-SignedHeaders", "host");
        String canonicalQuery = join(query);
        String canonicalRequest = method + "\n" + canonicalPath + "\n" + canonicalQuery + "\nhost:" + host(endpoint)
                + "\n\nhost\n" + UNSIGNED_PAYLOAD;
        String signature = sign(canonicalRequest, now, scope);
        return endpoint.getScheme() + "://" + host(endpoint) + canonicalPath + "?" + canonicalQuery
                + "&X-Amz-Signature=" + signature;
    }

    /** The headers of a signed request without a body: x-amz-date, x-amz-content-sha256 and Authorization. */
    Map<String, String> authorize(String method, URI endpoint, String canonicalPath, Instant now) {
        return authorize(method, endpoint, canonicalPath, now, EMPTY_SHA256);
    }

    /** The same for a request whose body has the given SHA-256 (hex): the payload is signed too. */
    Map<String, String> authorize(String method, URI endpoint, String canonicalPath, Instant now, String payloadSha256) {
        String scope = DATE.format(now) + "/" + region + "/s3/aws4_request";
        String amzDate = AMZ_DATE.format(now);
        String signedHeaders = "host;x-amz-content-sha256;x-amz-date";
        String canonicalRequest = method + "\n" + canonicalPath + "\n\nhost:" + host(endpoint)
                + "\nx-amz-content-sha256:" + payloadSha256 + "\nx-amz-date:" + amzDate + "\n\n" + signedHeaders + "\n"
                + payloadSha256;
        String signature = sign(canonicalRequest, now, scope);
        return Map.of("x-amz-date", amzDate, "x-amz-content-sha256", payloadSha256, "Authorization",
                ALGORITHM + " Credential=" + accessKey + "/" + scope + ", SignedHeaders=" + signedHeaders
                        + ", Signature=" + signature);
    }

    static String sha256Hex(byte[] data) {
        return HexFormat.of().formatHex(sha256(data));
    }

    /** A file's SHA-256 (hex), read in pieces (blocking). */
    static String sha256Hex(Path file) throws IOException {
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        byte[] piece = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            for (int n = in.read(piece); n > 0; n = in.read(piece)) {
                digest.update(piece, 0, n);
            }
        }
        return HexFormat.of().formatHex(digest.digest());
    }

    private String sign(String canonicalRequest, Instant now, String scope) {
        String stringToSign = ALGORITHM + "\n" + AMZ_DATE.format(now) + "\n" + scope + "\n"
                + HexFormat.of().formatHex(sha256(canonicalRequest.getBytes(StandardCharsets.UTF_8)));
        byte[] key = hmac(("AWS4" + secretKey).getBytes(StandardCharsets.UTF_8), DATE.format(now));
        key = hmac(key, region);
        key = hmac(key, "s3");
        key = hmac(key, "aws4_request");
        return HexFormat.of().formatHex(hmac(key, stringToSign));
    }

    /** host, with the port when it is not the scheme's default (what HTTP clients send as Host). */
    static String host(URI endpoint) {
        int port = endpoint.getPort();
        boolean defaultPort = port == -1 || (port == 80 && "http".equals(endpoint.getScheme()))
                || (port == 443 && "https".equals(endpoint.getScheme()));
        return defaultPort ? endpoint.getHost() : endpoint.getHost() + ":" + port;
    }

    /** RFC 3986 encoding as SigV4 wants it: unreserved characters kept, everything else %XX (uppercase). */
    static String encode(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xff);
            if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_'
                    || c == '.' || c == '~') {
                out.append(c);
            } else {
                out.append('%').append(String.format("%02X", b & 0xff));
            }
        }
        return out.toString();
    }

    /** A path with each segment encoded and the slashes kept. */
    static String encodePath(String path) {
        return Arrays.stream(path.split("/", -1)).map(SigV4::encode).collect(Collectors.joining("/"));
    }

    private static String join(SortedMap<String, String> query) {
        return query.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining("&"));
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static byte[] hmac(byte[] key, String data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
