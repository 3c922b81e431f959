package dev.voiceagent.adapters.rest.health;

import io.quarkus.runtime.Startup;
import io.vertx.core.Vertx;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Arrays;

/**
 * Event-loop lag: a timer asks to run every 100 ms on an event loop, and how late it runs is the
 * lag (work that blocks or hogs the loop shows here first). The last 600 samples (about a minute)
 * give the p95 and the maximum.
 */
@ApplicationScoped
@Startup
public class EventLoopLag {

    static final long INTERVAL_MS = 100;
    static final int SAMPLES = 600;

    private final Vertx vertx;
    private final double[] lagMs = new double[SAMPLES];
    private int next;
    private int filled;
    private long expected;
    private final long timer;

    public EventLoopLag(Vertx vertx) {
        this.vertx = vertx;
        this.expected = System.nanoTime() + INTERVAL_MS * 1_000_000;
        this.timer = vertx.setPeriodic(INTERVAL_MS, id -> sample(System.nanoTime()));
    }

    private synchronized void sample(long now) {
        lagMs[next] = Math.max(0, (now - expected) / 1_000_000.0);
        next = (next + 1) % SAMPLES;
        filled = Math.min(SAMPLES, filled + 1);
        expected = now + INTERVAL_MS * 1_000_000;
    }

    /** {p95, max} in milliseconds over the recent samples; zeros before the first one. */
    public synchronized double[] p95AndMax() {
        if (filled == 0) {
            return new double[] {0.0, 0.0};
        }
        double[] sorted = Arrays.copyOf(lagMs, filled);
        Arrays.sort(sorted);
        int index = (int) Math.ceil(0.95 * filled) - 1;
        return new double[] {round(sorted[Math.max(0, index)]), round(sorted[filled - 1])};
    }

    private static double round(double ms) {
        return Math.round(ms * 100.0) / 100.0;
    }

    @PreDestroy
    void stop() {
        vertx.cancelTimer(timer);
    }
}
