package dev.voiceagent.application.call;

import java.util.Optional;

/**
 * Out-port: where a call's media is streamed to be spoken with (the voice runtime, outside this control plane):
 * a websocket address for one run, signed so the runtime can trust it. Empty when none is configured.
 */
public interface VoiceRuntime {

    Optional<String> streamUrl(long organizationId, long workflowId, long runId);
}
