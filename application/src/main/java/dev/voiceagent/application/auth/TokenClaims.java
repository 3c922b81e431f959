package dev.voiceagent.application.auth;

import java.time.Instant;

public record TokenClaims(long userId, String email, Instant issuedAt, Instant expiresAt) {
}
