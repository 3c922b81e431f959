package dev.voiceagent.application.model;

/** The reference's APIKeyStatus: a service (llm, tts, ...) or "all", and what was found. */
public record ServiceStatus(String model, String message) {
}
