package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.CalleeScript;
import io.smallrye.mutiny.Uni;

/**
 * Out-port, SIMULATOR: the person who answers a simulated call that talks. It connects to the call's media address
 * exactly as a carrier's media stream does and says its script in real speech, listening to the agent between lines.
 */
public interface SimulatedCallee {

    /**
     * Answers the call at {@code mediaUrl}; the item is the call's length in whole seconds once either side hung up
     * (or {@code maxSeconds} passed). Fails when the media route refused the connection.
     */
    Uni<Integer> answer(String mediaUrl, long runId, CalleeScript script, int maxSeconds);
}
