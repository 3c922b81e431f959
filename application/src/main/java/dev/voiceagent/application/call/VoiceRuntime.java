package dev.voiceagent.application.call;

import java.util.Optional;

/**
 * Out-port: where a call's media is streamed to be spoken with (this service's media route unless the installation
 * moves it): a websocket address for one run, signed so the route can trust it.
 */
public interface VoiceRuntime {

    Optional<String> streamUrl(long organizationId, long workflowId, long runId);

    /**
     * The signature in the run's address alone, for a carrier that is given the ids and the token apart (Asterisk's
     * externalMedia appends them to its own configured address as a query).
     */
    Optional<String> streamToken(long organizationId, long workflowId, long runId);

    /** Whether {@code token} is the signature this runtime put in the run's address (checked in constant time). */
    boolean accepts(long organizationId, long workflowId, long runId, String token);
}
