package dev.voiceagent.adapters.postgres.shared;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Instants to and from the PG client's timestamptz values (null stays null). */
public final class Timestamps {

    private Timestamps() {
    }

    public static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }

    public static Instant instant(OffsetDateTime time) {
        return time == null ? null : time.toInstant();
    }
}
