package dev.voiceagent.application.storage;

import io.smallrye.mutiny.Uni;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/** Out-port: where uploaded files live, reached by time-limited signed URLs. */
public interface ObjectStore {

    /** The backend's name as clients see it (storage_backend): local, s3, ... */
    String backendName();

    /** A URL the client PUTs the file to (at most {@code maxBytes}). */
    Uni<String> signedUploadUrl(String key, String contentType, long maxBytes, Duration ttl);

    Uni<String> signedDownloadUrl(String key, Duration ttl, boolean inline);

    Uni<Optional<ObjectMetadata>> metadata(String key);

    /** Stores an object the service itself writes (a run's transcript), replacing any with that key. */
    Uni<Void> put(String key, byte[] content, String contentType);

    /**
     * Stores a file the service wrote (a call's recording) under {@code key}, read from disk as it goes rather than
     * held in memory (a long call's recording is hundreds of megabytes); blocking work runs off the caller's thread.
     * The file is left where it was, or moved into the store: the caller deletes it if it is still there afterwards.
     */
    Uni<Void> put(String key, Path file, String contentType);

    /** The object's bytes as a stream (blocking: read it off the event loop). */
    Uni<Optional<InputStream>> open(String key);
}
