package dev.voiceagent.adapters.storage;

import static org.assertj.core.api.Assertions.assertThat;

import io.vertx.mutiny.core.Vertx;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The local store's writes: a file the service wrote is moved in whole and read back as it was. */
class LocalObjectStoreTest {

    private final Vertx vertx = Vertx.vertx();

    @TempDir
    Path root;

    @TempDir
    Path elsewhere;

    @AfterEach
    void close() {
        vertx.closeAndAwait();
    }

    private LocalObjectStore store() {
        return new LocalObjectStore(root.toString(), new UrlSigner("k".repeat(32).getBytes(StandardCharsets.UTF_8)),
                "http://localhost:8080/", Clock.systemUTC(), vertx);
    }

    @Test
    void aFileIsMovedInWithItsTypeAndReplacesAnEarlierOne() throws Exception {
        LocalObjectStore store = store();
        store.put("recordings/7/runs/42.wav", "an older take".getBytes(StandardCharsets.UTF_8), "audio/wav").await()
                .indefinitely();
        byte[] audio = new byte[200_000];
        new java.util.Random(7).nextBytes(audio);
        Path file = Files.write(elsewhere.resolve("call-recording.wav"), audio);

        store.put("recordings/7/runs/42.wav", file, "audio/wav").await().indefinitely();

        try (InputStream in = store.open("recordings/7/runs/42.wav").await().indefinitely().orElseThrow()) {
            assertThat(in.readAllBytes()).isEqualTo(audio);
        }
        assertThat(store.metadata("recordings/7/runs/42.wav").await().indefinitely().orElseThrow().contentType())
                .isEqualTo("audio/wav");
        assertThat(file).as("moved, not copied: nothing left to delete").doesNotExist();
        try (var left = Files.walk(root)) {
            assertThat(left.filter(p -> p.toString().endsWith(".partial"))).isEmpty();
        }
    }

    @Test
    void aKeyOutsideTheRootIsRefusedAndTheFileStays() throws Exception {
        Path file = Files.write(elsewhere.resolve("call-recording.wav"), new byte[] {1, 2, 3});
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> store().put("../escape.wav", file, "audio/wav")
                .await().indefinitely()).hasMessageContaining("escapes");
        assertThat(file).exists();
    }
}
