package dev.voiceagent.application.workflow;

import io.smallrye.mutiny.Uni;

/**
 * Runs that would otherwise stay "in progress" forever are closed; any replica may run it. Browser calls (webrtc,
 * smallwebrtc: an editor's test call, a voice widget's) whose media never connected are closed as abandoned after a
 * while; calls whose media a replica held and stopped keeping alive (the replica died mid-call) as media_lost.
 */
public interface CloseAbandonedRunsUseCase {

    /** How many runs were closed. */
    Uni<Integer> closeAbandoned();
}
