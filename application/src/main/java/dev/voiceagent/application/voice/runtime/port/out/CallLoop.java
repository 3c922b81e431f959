package dev.voiceagent.application.voice.runtime.port.out;

import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Executor;

/**
 * The one thread a call's session runs on (the event loop of its media socket): every event of the call is handed
 * here, so the session needs no lock. Its clock is the session's clock.
 */
public interface CallLoop extends Executor {

    /** Now, on the session's clock. */
    Instant now();

    /** Runs {@code task} on the loop every {@code period} until the returned handle is closed. */
    AutoCloseable every(Duration period, Runnable task);
}
