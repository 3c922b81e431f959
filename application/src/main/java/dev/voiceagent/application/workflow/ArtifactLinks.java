package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.workflow.RunArtifact;
import java.time.Instant;
import java.util.Optional;

/**
 * Out-port: signed, expiring tokens that name one artifact of one run, so a link can be shared without
 * credentials and without anything stored.
 */
public interface ArtifactLinks {

    /** What a valid token names. */
    record Link(long runId, RunArtifact artifact) {
    }

    String token(long runId, RunArtifact artifact, Instant expiresAt);

    /** The run and artifact of a token that is well formed, correctly signed and unexpired. */
    Optional<Link> verify(String token, Instant now);
}
