package dev.voiceagent.deploy.support;

import jakarta.annotation.Priority;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The application's clock in tests: the system's (in microsecond ticks, as in production) plus an offset a
 * test may move forward to see time pass (a key expiring) and must put back with {@link #reset()}.
 */
@Alternative
@Priority(1)
@Singleton
public class TestClock extends Clock {

    private static final Clock SYSTEM = Clock.tick(Clock.systemUTC(), Duration.ofNanos(1_000));
    private static volatile Duration offset = Duration.ZERO;

    public static void advance(Duration by) {
        offset = offset.plus(by);
    }

    public static void reset() {
        offset = Duration.ZERO;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }

    @Override
    public Instant instant() {
        return SYSTEM.instant().plus(offset);
    }
}
