package dev.voiceagent.adapters.storage.s3;

import dev.voiceagent.application.storage.ObjectMetadata;
import dev.voiceagent.application.storage.ObjectStore;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.Optional;

/**
 * An S3-compatible bucket (AWS S3, MinIO, Ceph, R2, ...): clients upload and download through
 * SigV4-presigned URLs straight to the store; the service reads metadata and sources with signed
 * requests of its own. Path-style addressing ({endpoint}/{bucket}/{key}) works with every
 * S3-compatible server. A presigned PUT cannot cap the size: the size is checked from the object's
 * metadata when the campaign is created.
 */
public class S3ObjectStore implements ObjectStore {

    static final long MAX_EXPIRY_SECONDS = Duration.ofDays(7).toSeconds();

    private final URI endpoint;
    private final String bucket;
    private final SigV4 signer;
    private final Clock clock;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public S3ObjectStore(URI endpoint, String region, String bucket, String accessKey, String secretKey, Clock clock) {
        this.endpoint = endpoint;
        this.bucket = bucket;
        this.signer = new SigV4(accessKey, secretKey, region);
        this.clock = clock;
    }

    @Override
    public String backendName() {
        return "s3";
    }

    private String path(String key) {
        return "/" + SigV4.encode(bucket) + "/" + SigV4.encodePath(key);
    }

    private long expiry(Duration ttl) {
        return Math.max(1, Math.min(ttl.toSeconds(), MAX_EXPIRY_SECONDS));
    }

    @Override
    public Uni<String> signedUploadUrl(String key, String contentType, long maxBytes, Duration ttl) {
        return Uni.createFrom().item(signer.presign("PUT", endpoint, path(key), Map.of(), clock.instant(), expiry(ttl)));
    }

    @Override
    public Uni<String> signedDownloadUrl(String key, Duration ttl, boolean inline) {
        String name = key.substring(key.lastIndexOf('/') + 1).replace("\"", "");
        return Uni.createFrom().item(signer.presign("GET", endpoint, path(key),
                Map.of("response-content-disposition", (inline ? "inline" : "attachment") + "; filename=\"" + name + "\""),
                clock.instant(), expiry(ttl)));
    }

    @Override
    public Uni<Optional<ObjectMetadata>> metadata(String key) {
        return Uni.createFrom().completionStage(() -> http.sendAsync(request("HEAD", key),
                        HttpResponse.BodyHandlers.discarding()))
                .map(response -> {
                    if (response.statusCode() == 404) {
                        return Optional.<ObjectMetadata>empty();
                    }
                    check(response, key);
                    var headers = response.headers();
                    long size = headers.firstValueAsLong("content-length").orElse(0);
                    String type = headers.firstValue("content-type").orElse("application/octet-stream");
                    Instant modified = headers.firstValue("last-modified")
                            .map(v -> ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant())
                            .orElse(null);
                    return Optional.of(new ObjectMetadata(key, size, type, modified));
                });
    }

    @Override
    public Uni<Optional<InputStream>> open(String key) {
        return Uni.createFrom().completionStage(() -> http.sendAsync(request("GET", key),
                        HttpResponse.BodyHandlers.ofInputStream()))
                .map(response -> {
                    if (response.statusCode() == 404) {
                        closeQuietly(response.body());
                        return Optional.<InputStream>empty();
                    }
                    if (response.statusCode() >= 300) {
                        closeQuietly(response.body());
                    }
                    check(response, key);
                    return Optional.of(response.body());
                });
    }

    @Override
    public Uni<Void> put(String key, byte[] content, String contentType) {
        return put(key, contentType, HttpRequest.BodyPublishers.ofByteArray(content), SigV4.sha256Hex(content));
    }

    /**
     * The file's SHA-256 (the signed payload) read on a worker thread, then the file streamed as the request's body
     * (the HTTP client reads it as it sends).
     */
    @Override
    public Uni<Void> put(String key, Path file, String contentType) {
        return Uni.createFrom().item(() -> {
            try {
                return put(key, contentType, HttpRequest.BodyPublishers.ofFile(file), SigV4.sha256Hex(file));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).runSubscriptionOn(Infrastructure.getDefaultWorkerPool()).chain(upload -> upload);
    }

    /** A signed PUT of {@code body}, whose SHA-256 (hex) is {@code sha256}. */
    private Uni<Void> put(String key, String contentType, HttpRequest.BodyPublisher body, String sha256) {
        String path = path(key);
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(endpoint.getScheme() + "://"
                        + SigV4.host(endpoint) + path))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", contentType).PUT(body);
        signer.authorize("PUT", endpoint, path, clock.instant(), sha256).forEach(builder::header);
        return Uni.createFrom().completionStage(() -> http.sendAsync(builder.build(),
                HttpResponse.BodyHandlers.discarding())).invoke(response -> check(response, key)).replaceWithVoid();
    }

    private HttpRequest request(String method, String key) {
        String path = path(key);
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(endpoint.getScheme() + "://"
                        + SigV4.host(endpoint) + path))
                .timeout(Duration.ofSeconds(30)).method(method, HttpRequest.BodyPublishers.noBody());
        signer.authorize(method, endpoint, path, clock.instant()).forEach(builder::header);
        return builder.build();
    }

    private static void check(HttpResponse<?> response, String key) {
        if (response.statusCode() >= 300) {
            throw new IllegalStateException("object store answered " + response.statusCode() + " for " + key);
        }
    }

    private static void closeQuietly(InputStream in) {
        try {
            in.close();
        } catch (IOException ignored) {
            // nothing to release beyond the connection
        }
    }
}
