package dev.voiceagent.adapters.storage;

import dev.voiceagent.application.storage.ObjectMetadata;
import dev.voiceagent.application.storage.ObjectStore;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Typed;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Files on the local disk, uploaded and downloaded through URLs this service signs and serves
 * itself (LocalObjectResource), so a laptop needs nothing else. Disk access runs on worker threads.
 */
@ApplicationScoped
@Typed(LocalObjectStore.class) // the ObjectStore in force is chosen by StorageProducers (voiceagent.storage.backend)
public class LocalObjectStore implements ObjectStore {

    static final String ROUTE = "/api/v1/object-store/local/";

    private final Path root;
    private final UrlSigner signer;
    private final String baseUrl;
    private final Clock clock;
    private final Vertx vertx;

    public LocalObjectStore(@ConfigProperty(name = "voiceagent.storage.local.root") String root, UrlSigner signer,
            @ConfigProperty(name = "voiceagent.callbacks.base-url") String baseUrl, Clock clock, Vertx vertx) {
        this.root = Path.of(root).toAbsolutePath().normalize();
        this.signer = signer;
        this.baseUrl = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        this.clock = clock;
        this.vertx = vertx;
    }

    @Override
    public String backendName() {
        return "local";
    }

    /** The file of a key, never outside the root. */
    Path file(String key) {
        Path file = root.resolve(key).normalize();
        if (!file.startsWith(root)) {
            throw new IllegalArgumentException("key escapes the store");
        }
        return file;
    }

    Path metaFile(String key) {
        return file(key).resolveSibling(file(key).getFileName() + ".meta");
    }

    @Override
    public Uni<String> signedUploadUrl(String key, String contentType, long maxBytes, Duration ttl) {
        long expires = clock.instant().plus(ttl).getEpochSecond();
        String signature = signer.sign("PUT", key, expires, String.valueOf(maxBytes));
        return Uni.createFrom().item(baseUrl + ROUTE + key + "?expires=" + expires + "&max=" + maxBytes
                + "&signature=" + signature);
    }

    @Override
    public Uni<String> signedDownloadUrl(String key, Duration ttl, boolean inline) {
        long expires = clock.instant().plus(ttl).getEpochSecond();
        String signature = signer.sign("GET", key, expires, String.valueOf(inline));
        return Uni.createFrom().item(baseUrl + ROUTE + key + "?expires=" + expires + "&inline=" + inline
                + "&signature=" + URLEncoder.encode(signature, StandardCharsets.US_ASCII));
    }

    @Override
    public Uni<Optional<ObjectMetadata>> metadata(String key) {
        return vertx.executeBlocking(Uni.createFrom().item(() -> {
            Path file = file(key);
            if (!Files.isRegularFile(file)) {
                return Optional.<ObjectMetadata>empty();
            }
            try {
                Path meta = metaFile(key);
                String contentType = Files.exists(meta) ? Files.readString(meta).strip() : "application/octet-stream";
                return Optional.of(new ObjectMetadata(key, Files.size(file), contentType,
                        Files.getLastModifiedTime(file).toInstant()));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }), false);
    }

    @Override
    public Uni<Void> put(String key, byte[] content, String contentType) {
        return put(key, contentType, partial -> Files.write(partial, content));
    }

    /** Moved into place (Files.move copies across file systems), so the store's file appears whole or not. */
    @Override
    public Uni<Void> put(String key, Path source, String contentType) {
        return put(key, contentType, partial -> Files.move(source, partial, StandardCopyOption.REPLACE_EXISTING));
    }

    /** What puts the object's bytes at a path beside its final one. */
    private interface Fill {
        void into(Path partial) throws IOException;
    }

    /** The object filled beside its place, then moved there at once (off the event loop). */
    private Uni<Void> put(String key, String contentType, Fill fill) {
        return vertx.executeBlocking(Uni.createFrom().item(() -> {
            Path file = file(key);
            try {
                Files.createDirectories(file.getParent());
                Path partial = file.resolveSibling(file.getFileName() + ".partial");
                fill.into(partial);
                Files.writeString(metaFile(key), contentType);
                Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
                return null;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }), false).replaceWithVoid();
    }

    @Override
    public Uni<Optional<InputStream>> open(String key) {
        return vertx.executeBlocking(Uni.createFrom().item(() -> {
            Path file = file(key);
            try {
                return Files.isRegularFile(file) ? Optional.<InputStream>of(Files.newInputStream(file)) : Optional.empty();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }), false);
    }
}
