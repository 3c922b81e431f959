package dev.voiceagent.application.voice.runtime;

import dev.voiceagent.application.call.ReportAnsweringMachineUseCase;
import dev.voiceagent.application.call.ResumeCallStreamUseCase;
import dev.voiceagent.application.call.VoiceRuntime;
import dev.voiceagent.application.shared.ForbiddenException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.AdmitCallMediaUseCase;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.MediaUnavailable;
import dev.voiceagent.application.voice.runtime.port.out.VoiceRunStore;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.util.Optional;

/**
 * The voice runtime's entrance for carriers: a media socket is admitted before its upgrade (its signed address checked,
 * the run claimed for this replica), the carrier's answering-machine verdict reaches the call wherever it talks, and a
 * stream that ended without the call ending is given a fresh address to continue on any replica.
 */
@Singleton
public class CallAdmission implements AdmitCallMediaUseCase, ReportAnsweringMachineUseCase, ResumeCallStreamUseCase {

    static final String BAD_TOKEN = "Invalid media token";
    static final String NOT_FOUND = "Workflow run not found";
    static final String COMPLETED = "The run is completed";
    static final String TAKEN = "The run's media is already connected";

    private final VoiceRuntime runtime;
    private final VoiceRunStore runs;
    private final VoiceSessions sessions;

    public CallAdmission(VoiceRuntime runtime, VoiceRunStore runs, VoiceSessions sessions) {
        this.runtime = runtime;
        this.runs = runs;
        this.sessions = sessions;
    }

    @Override
    public Uni<Admitted> admit(long workflowId, long organizationId, long runId, String token) {
        if (token == null || !runtime.accepts(organizationId, workflowId, runId, token)) {
            return Uni.createFrom().failure(new ForbiddenException(BAD_TOKEN));
        }
        return runs.claim(organizationId, workflowId, runId, Instant.now())
                .map(claim -> admitted(claim, organizationId, workflowId, runId));
    }

    /** The run a claim took for this replica, or the refusal's 404 (unknown) or 409 (completed, media taken). */
    static Admitted admitted(VoiceRunStore.Claim claim, long organizationId, long workflowId, long runId) {
        if (claim.run().isPresent()) {
            return new Admitted(organizationId, workflowId, runId, claim.run().get(), claim.checkpoint());
        }
        throw switch (claim.refusal()) {
            case UNKNOWN -> new ResourceNotFoundException(NOT_FOUND);
            case COMPLETED -> new MediaUnavailable(COMPLETED, true);
            case TAKEN -> new MediaUnavailable(TAKEN, false);
        };
    }

    @Override
    public Uni<Void> report(long runId, Verdict verdict) {
        // kept on the run for a session on another replica (its heartbeat reads it); told at once to one here
        return runs.carrierAmd(runId, verdict.name()).invoke(() -> sessions.carrierAmd(runId, verdict.name()));
    }

    @Override
    public Uni<Optional<String>> resume(long runId) {
        return runs.reopen(runId, MAX_MOVES).map(reopened -> reopened.flatMap(r -> runtime.streamUrl(
                r.organizationId(), r.workflowId(), runId)));
    }
}
