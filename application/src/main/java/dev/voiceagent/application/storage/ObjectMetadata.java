package dev.voiceagent.application.storage;

import java.time.Instant;

public record ObjectMetadata(String key, long size, String contentType, Instant lastModified) {
}
