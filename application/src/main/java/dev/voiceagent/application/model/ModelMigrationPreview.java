package dev.voiceagent.application.model;

import java.util.Map;

/** What migrating the user's legacy configuration would store: the v2 configuration and its effect (masked). */
public record ModelMigrationPreview(Map<String, Object> configuration, Map<String, Object> effectiveConfiguration) {
}
