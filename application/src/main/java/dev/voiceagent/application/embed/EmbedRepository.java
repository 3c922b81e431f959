package dev.voiceagent.application.embed;

import dev.voiceagent.domain.embed.EmbedToken;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** Out-port: embed tokens (one per workflow) and the sessions pages open with them. */
public interface EmbedRepository {

    /** Inserts the workflow's token, or updates it (the token value never changes). */
    Uni<EmbedToken> save(EmbedToken token);

    /** The workflow's token, active or not. */
    Uni<Optional<EmbedToken>> findByWorkflow(long organizationId, long workflowId);

    Uni<Optional<EmbedToken>> findByToken(String token);

    Uni<Optional<EmbedToken>> findById(long id);

    /** False when the workflow has no active token. */
    Uni<Boolean> deactivate(long organizationId, long workflowId);

    /** Counts one use if the limit allows it, in one statement: concurrent pages never exceed the limit. */
    Uni<Boolean> reserveUse(long tokenId);

    Uni<EmbedSession> insertSession(EmbedSession session, String tokenHash, String clientIp, String userAgent);

    Uni<Optional<EmbedSession>> findSessionByHash(String tokenHash);
}
