package dev.voiceagent.application.voice.runtime.port.in;

import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.shared.PaymentRequiredException;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.voice.runtime.port.out.CallCheckpoint;
import dev.voiceagent.application.voice.runtime.port.out.CallLoop;
import dev.voiceagent.application.voice.runtime.port.out.MediaChannel;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.util.Map;

/** A carrier's media socket for a run: admitted before the upgrade, then the call's voice session. */
public final class CallMediaUseCases {

    private CallMediaUseCases() {
    }

    /** The run's media cannot be had (a 409): the run is completed, or another socket holds its media. */
    public static final class MediaUnavailable extends ConflictException {
        private final boolean completed;

        public MediaUnavailable(String message, boolean completed) {
            super(message);
            this.completed = completed;
        }

        /** True: the run is over; false: another socket holds its media. */
        public boolean completed() {
            return completed;
        }
    }

    /** A run whose media this replica now holds, and the checkpoint of the call it continues (null: a new call). */
    public record Admitted(long organizationId, long workflowId, long runId,
            WorkflowRun run, CallCheckpoint checkpoint) {
    }

    public interface AdmitCallMediaUseCase {
        /**
         * Checks the address's signature and claims the run's media for this replica, before the socket is upgraded:
         * a wrong token is a {@link ForbiddenException}, an unknown run (or another
         * organization's, or another workflow's) a {@link ResourceNotFoundException},
         * a completed run or one whose media another socket holds a
         * {@link ConflictException}.
         */
        Uni<Admitted> admit(long workflowId, long organizationId, long runId, String token);
    }

    /**
     * A browser's media for a browser run (webrtc / smallwebrtc: an editor's test call, a voice widget's), checked in
     * the order the API checks: the run must be the organization's (else 404, another organization's too), a browser
     * run (409 otherwise: a phone call's media comes from its carrier), credits left where they are enforced (a
     * {@link PaymentRequiredException}, 402), not completed and not connected already
     * (409).
     */
    public interface AdmitBrowserMediaUseCase {
        Uni<Admitted> admit(Principal principal, long workflowId, long runId);

        /** A voice widget's media: its session token names the run (404 unknown, 403 expired or another page). */
        Uni<Admitted> admitEmbed(String sessionToken, String origin);

        /**
         * An editor's call brings context variables (the dashboard's call_context_vars, its test values of the
         * prompts' variables): added to the admitted run's initial context and kept on the run, before its session
         * starts. Variables the run cannot take fail with a
         * {@link DomainRuleViolation} saying why, and nothing is kept.
         */
        Uni<Admitted> withContextVariables(Admitted admitted, Map<String, Object> variables);
    }

    public interface StartVoiceSessionUseCase {
        /**
         * The carrier started the media: loads the run's agent and models and starts its session on {@code loop}
         * (the greeting first). A model the runtime cannot use ends the call at once, with the reason on the run, and
         * gives null: no session.
         */
        Uni<MediaInput> start(Admitted admitted, MediaChannel media, CallLoop loop);

        /**
         * The media of an admitted call ended before its session started (a browser that left before its offer, an
         * offer or context the call cannot use): the run completes with {@code reason} as its disposition and its
         * media is released, rather than waiting for the sweep of runs whose media went quiet.
         */
        Uni<Void> endUnstarted(Admitted admitted, String reason);
    }
}
