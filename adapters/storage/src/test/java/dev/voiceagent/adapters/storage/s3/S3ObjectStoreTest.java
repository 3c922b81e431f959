package dev.voiceagent.adapters.storage.s3;

import static org.assertj.core.api.Assertions.assertThat;

import dev.voiceagent.application.storage.ObjectMetadata;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The S3 adapter against a real S3-compatible server running in this JVM (s3proxy, which checks
 * SigV4 signatures): presigned PUT and GET, signed HEAD and GET, bad credentials and expiry refused.
 */
class S3ObjectStoreTest {

    private static final String ACCESS = "AKIDVOICEAGENT";
    private static final String SECRET = "test-secret-key";
    private static S3Proxy proxy;
    private static BlobStoreContext blobs;
    private static URI endpoint;
    private final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    static void server() throws Exception {
        blobs = ContextBuilder.newBuilder("transient").credentials("unused", "unused").build(BlobStoreContext.class);
        blobs.getBlobStore().createContainerInLocation(null, "voice");
        proxy = S3Proxy.builder().blobStore(blobs.getBlobStore())
                .awsAuthentication(AuthenticationType.AWS_V2_OR_V4, ACCESS, SECRET)
                .endpoint(URI.create("http://127.0.0.1:0")).build();
        proxy.start();
        while (!proxy.getState().equals("STARTED")) {
            Thread.sleep(10);
        }
        endpoint = URI.create("http://127.0.0.1:" + proxy.getPort());
    }

    @AfterAll
    static void stop() throws Exception {
        proxy.stop();
        blobs.close();
    }

    private static S3ObjectStore store(String secret, Clock clock) {
        return new S3ObjectStore(endpoint, "us-east-1", "voice", ACCESS, secret, clock);
    }

    private HttpResponse<String> put(String url, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).header("Content-Type", "text/csv")
                .PUT(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aPresignedUploadIsReadBackThroughMetadataOpenAndAPresignedDownload() throws Exception {
        S3ObjectStore store = store(SECRET, Clock.systemUTC());
        String key = "campaigns/7/Contacts list ü (1).csv";
        String csv = "phone_number,first_name\n+15550000001,Ann\n";
        String upload = store.signedUploadUrl(key, "text/csv", 10 << 20, Duration.ofMinutes(15)).await().indefinitely();
        assertThat(upload).contains("X-Amz-Algorithm=AWS4-HMAC-SHA256").contains("X-Amz-Signature=");
        assertThat(put(upload, csv).statusCode()).isEqualTo(200);

        Optional<ObjectMetadata> meta = store.metadata(key).await().indefinitely();
        assertThat(meta).isPresent();
        assertThat(meta.get().size()).isEqualTo(csv.getBytes(StandardCharsets.UTF_8).length);
        assertThat(meta.get().contentType()).startsWith("text/csv");
        assertThat(meta.get().lastModified()).isNotNull();

        try (InputStream in = store.open(key).await().indefinitely().orElseThrow()) {
            assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8)).isEqualTo(csv);
        }
        String download = store.signedDownloadUrl(key, Duration.ofMinutes(5), false).await().indefinitely();
        HttpResponse<String> got = http.send(HttpRequest.newBuilder(URI.create(download)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(got.statusCode()).isEqualTo(200);
        assertThat(got.body()).isEqualTo(csv);
        assertThat(got.headers().firstValue("content-disposition")).hasValueSatisfying(v -> assertThat(v)
                .startsWith("attachment"));
    }

    @Test
    void theServiceWritesAnObjectWithASignedPayloadAndReadsItBack() throws Exception {
        S3ObjectStore store = store(SECRET, Clock.systemUTC());
        byte[] transcript = "assistant: Hello\nuser: Hi ü\n".getBytes(StandardCharsets.UTF_8);
        store.put("transcripts/7/42.txt", transcript, "text/plain; charset=utf-8").await().indefinitely();
        ObjectMetadata meta = store.metadata("transcripts/7/42.txt").await().indefinitely().orElseThrow();
        assertThat(meta.size()).isEqualTo(transcript.length);
        try (InputStream in = store.open("transcripts/7/42.txt").await().indefinitely().orElseThrow()) {
            assertThat(in.readAllBytes()).isEqualTo(transcript);
        }
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store("not-the-secret", Clock.systemUTC())
                .put("transcripts/7/43.txt", transcript, "text/plain").await().indefinitely())
                .hasMessageContaining("403");
    }

    @Test
    void aRecordingIsStreamedFromItsFileWithItsSignedPayload() throws Exception {
        S3ObjectStore store = store(SECRET, Clock.systemUTC());
        byte[] audio = new byte[3 * 64 * 1024 + 17]; // more than one piece of the digest's and the upload's reads
        new java.util.Random(42).nextBytes(audio);
        java.nio.file.Path file = java.nio.file.Files.createTempFile("recording", ".wav");
        try {
            java.nio.file.Files.write(file, audio);
            store.put("recordings/7/runs/42.wav", file, "audio/wav").await().indefinitely();
            ObjectMetadata meta = store.metadata("recordings/7/runs/42.wav").await().indefinitely().orElseThrow();
            assertThat(meta.size()).isEqualTo(audio.length);
            assertThat(meta.contentType()).isEqualTo("audio/wav");
            try (InputStream in = store.open("recordings/7/runs/42.wav").await().indefinitely().orElseThrow()) {
                assertThat(in.readAllBytes()).isEqualTo(audio);
            }
            assertThat(SigV4.sha256Hex(file)).isEqualTo(SigV4.sha256Hex(audio));
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> store("not-the-secret", Clock.systemUTC())
                    .put("recordings/7/runs/43.wav", file, "audio/wav").await().indefinitely())
                    .hasMessageContaining("403");
        } finally {
            java.nio.file.Files.deleteIfExists(file);
        }
    }

    @Test
    void missingObjectsAreEmptyNotErrors() {
        S3ObjectStore store = store(SECRET, Clock.systemUTC());
        assertThat(store.metadata("campaigns/7/none.csv").await().indefinitely()).isEmpty();
        assertThat(store.open("campaigns/7/none.csv").await().indefinitely()).isEmpty();
    }

    @Test
    void aWrongSecretOrAnExpiredUrlIsRefusedByTheServer() throws Exception {
        String wrong = store("not-the-secret", Clock.systemUTC())
                .signedUploadUrl("campaigns/7/x.csv", "text/csv", 100, Duration.ofMinutes(5)).await().indefinitely();
        assertThat(put(wrong, "a").statusCode()).isEqualTo(403);
        Clock anHourAgo = Clock.fixed(Instant.now().minus(Duration.ofHours(1)), ZoneOffset.UTC);
        String expired = store(SECRET, anHourAgo)
                .signedUploadUrl("campaigns/7/x.csv", "text/csv", 100, Duration.ofMinutes(5)).await().indefinitely();
        assertThat(put(expired, "a").statusCode()).isEqualTo(403);
        assertThat(store(SECRET, Clock.systemUTC()).metadata("campaigns/7/x.csv").await().indefinitely())
                .as("nothing was stored").isEmpty();
    }
}
