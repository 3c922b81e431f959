package dev.voiceagent.application.call;

import io.smallrye.mutiny.Uni;
import java.util.Optional;

/**
 * The carrier's stream of a live call ended without the call ending (the replica it talked to drained or died, or the
 * connection broke), and the carrier asks where to stream it now: a fresh signed address, to be claimed by any
 * replica, which continues the conversation from the call's last checkpoint. Empty when the call must not go on (its
 * run is completed, or its media moved too many times already): the carrier then hangs up.
 */
public interface ResumeCallStreamUseCase {

    /** How many times one call's media may move before it is hung up instead (a loop is never a call). */
    int MAX_MOVES = 5;

    Uni<Optional<String>> resume(long runId);
}
