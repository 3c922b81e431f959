package dev.voiceagent.application.workflow;

import io.smallrye.mutiny.Uni;

/**
 * Browser calls (webrtc, smallwebrtc: an editor's test call, a voice widget's) whose media never connected are
 * closed as abandoned after a while, instead of staying "in progress" forever; any replica may run it.
 */
public interface CloseAbandonedRunsUseCase {

    /** How many runs were closed. */
    Uni<Integer> closeAbandoned();
}
