package dev.voiceagent.application.embed;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A sliding-window limit per key (at most {@code limit} events in any {@code window}), kept on this replica:
 * what an anonymous page may do in a burst. Bounded: when it tracks too many keys it starts afresh.
 */
public final class RateLimiter {

    private static final int MAX_KEYS = 50_000;

    private final Clock clock;
    private final Map<String, Deque<Long>> events = new ConcurrentHashMap<>();

    public RateLimiter(Clock clock) {
        this.clock = clock;
    }

    /** Records an event for the key and says whether it is within the limit (a refused event is not recorded). */
    public boolean allow(String key, int limit, Duration window) {
        if (events.size() > MAX_KEYS) {
            events.clear();
        }
        long now = clock.millis();
        long from = now - window.toMillis();
        Deque<Long> times = events.computeIfAbsent(key, k -> new ArrayDeque<>());
        synchronized (times) {
            while (!times.isEmpty() && times.peekFirst() <= from) {
                times.pollFirst();
            }
            if (times.size() >= limit) {
                return false;
            }
            times.addLast(now);
            return true;
        }
    }
}
