package dev.voiceagent.adapters.media;

import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.time.Instant;

/** A call's loop on its socket's Vert.x context: the session and every callback of the call run there. */
public final class VertxCallLoop implements CallLoop {

    private final Vertx vertx;
    private final Context context;

    public VertxCallLoop(Vertx vertx, Context context) {
        this.vertx = vertx;
        this.context = context;
    }

    @Override
    public Instant now() {
        return Instant.now();
    }

    @Override
    public void execute(Runnable task) {
        context.runOnContext(v -> task.run());
    }

    @Override
    public AutoCloseable every(Duration period, Runnable task) {
        long[] id = {0};
        context.runOnContext(v -> id[0] = vertx.setPeriodic(period.toMillis(), t -> task.run()));
        return () -> context.runOnContext(v -> vertx.cancelTimer(id[0]));
    }
}
