package dev.voiceagent.domain.campaign;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/** One entry of a campaign's append-only log: why the campaign changed (state, breaker trip, failures). */
public record CampaignLogEntry(Instant ts, LogLevel level, String event, String message, Map<String, Object> details) {

    public CampaignLogEntry {
        Objects.requireNonNull(ts, "ts");
        Objects.requireNonNull(level, "level");
        Objects.requireNonNull(event, "event");
        Objects.requireNonNull(message, "message");
        details = details == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }
}
