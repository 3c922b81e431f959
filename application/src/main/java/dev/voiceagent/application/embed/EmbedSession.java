package dev.voiceagent.application.embed;

import java.time.Instant;

/** A page's session with an embed: the run it started, where it came from, until when it is valid. */
public record EmbedSession(Long id, long embedTokenId, long organizationId, long workflowId, long runId, String origin,
        Instant expiresAt, Instant createdAt) {
}
