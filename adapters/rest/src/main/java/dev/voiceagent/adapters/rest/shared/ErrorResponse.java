package dev.voiceagent.adapters.rest.shared;

/** Every 4xx/5xx body except bean-validation 422s: {"detail": "message"}. */
public record ErrorResponse(String detail) {
}
