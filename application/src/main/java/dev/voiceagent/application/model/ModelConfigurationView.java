package dev.voiceagent.application.model;

import java.util.Map;

/**
 * What the models page shows: the organization's v2 configuration (secrets masked; null when it has
 * none), the effective settings per service (masked) and where they come from.
 */
public record ModelConfigurationView(Map<String, Object> configuration, Map<String, Object> effectiveConfiguration,
        String source) {
}
