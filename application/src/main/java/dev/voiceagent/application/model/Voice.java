package dev.voiceagent.application.model;

/** One voice of a text-to-speech provider. */
public record Voice(String voiceId, String name, String description, String accent, String gender, String language,
        String previewUrl) {
}
