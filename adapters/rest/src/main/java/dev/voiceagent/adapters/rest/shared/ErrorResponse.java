package dev.voiceagent.adapters.rest.shared;

import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * Every 4xx/5xx body except bean-validation 422s: {"detail": "message"}. Only exception mappers
 * return it (inside a Response), so no resource signature tells the native build that Jackson
 * needs it: registered here.
 */
@RegisterForReflection
public record ErrorResponse(String detail) {
}
