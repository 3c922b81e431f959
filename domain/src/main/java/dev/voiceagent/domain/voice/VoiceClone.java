package dev.voiceagent.domain.voice;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.List;

/**
 * A voice cloned at a text-to-speech provider from an organization's recordings; agents speak with it when their
 * workflow configuration's {@code voice} names it.
 */
public record VoiceClone(Long id, long organizationId, String name, String description, String provider,
        String providerVoiceId, String status, List<String> recordingIds, long createdBy, Instant createdAt) {

    public static final int MAX_NAME = 100;
    public static final int MAX_RECORDINGS = 25;
    public static final int MAX_PREVIEW_TEXT = 500;
    /** The workflow configuration key that holds an agent's voice. */
    public static final String CONFIGURATION_KEY = "voice";

    public VoiceClone {
        if (name == null || name.isBlank()) {
            throw new DomainRuleViolation("name is required");
        }
        name = name.strip();
        if (name.length() > MAX_NAME) {
            throw new DomainRuleViolation("name must be at most " + MAX_NAME + " characters");
        }
        recordingIds = recordingIds == null ? List.of() : List.copyOf(recordingIds);
    }
}
