package dev.voiceagent.application.voice.runtime;

import dev.voiceagent.application.embed.EmbedUseCases.EmbedSessionUseCase;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.usage.CreditGate;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.AdmitBrowserMediaUseCase;
import dev.voiceagent.application.voice.runtime.port.in.CallMediaUseCases.Admitted;
import dev.voiceagent.application.voice.runtime.port.out.VoiceRunStore;
import dev.voiceagent.application.workflow.WorkflowRunRepository;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Map;
import java.util.Set;

/**
 * Admits a browser's media (the plain WebSocket voice route, later WebRTC) for a browser run: the organization's run
 * (an editor's test call, created by POST /workflow/{id}/runs with mode webrtc or smallwebrtc) or a voice widget's
 * (its embed session). The claim is the phone path's: the run is running and held by this replica, so the abandoned
 * runs' sweep leaves it alone and a second socket is refused. Where credits are enforced, an organization whose balance
 * is exhausted starts no browser call either (402), as no phone call or chat.
 */
@Singleton
public class BrowserMediaService implements AdmitBrowserMediaUseCase {

    static final Set<String> BROWSER_VOICE = Set.of("webrtc", "smallwebrtc");
    static final String NOT_BROWSER = "This run is not a browser call: its media comes from its carrier";

    private final WorkflowRunRepository runs;
    private final VoiceRunStore media;
    private final EmbedSessionUseCase embeds;
    private final Clock clock;
    private final CreditGate credits;

    public BrowserMediaService(WorkflowRunRepository runs, VoiceRunStore media, EmbedSessionUseCase embeds,
            Clock clock, CreditGate credits) {
        this.runs = runs;
        this.media = media;
        this.embeds = embeds;
        this.clock = clock;
        this.credits = credits;
    }

    @Override
    public Uni<Admitted> admit(Principal principal, long workflowId, long runId) {
        return claim(principal.organizationId(), workflowId, runId);
    }

    @Override
    public Uni<Admitted> admitEmbed(String sessionToken, String origin) {
        return embeds.voiceSession(sessionToken, origin)
                .chain(session -> claim(session.organizationId(), session.workflowId(), session.runId()));
    }

    @Override
    public Uni<Admitted> withContextVariables(Admitted admitted, Map<String, Object> variables) {
        if (variables.isEmpty()) {
            return Uni.createFrom().item(admitted);
        }
        return Uni.createFrom().item(() -> admitted.run().withContextVariables(variables)) // checked first
                .chain(run -> media.addContextVariables(admitted.runId(), variables).replaceWith(new Admitted(
                        admitted.organizationId(), admitted.workflowId(), admitted.runId(), run,
                        admitted.checkpoint())));
    }

    private Uni<Admitted> claim(long organizationId, long workflowId, long runId) {
        return runs.find(organizationId, workflowId, runId).chain(found -> {
            var run = found.orElseThrow(() -> new ResourceNotFoundException(CallAdmission.NOT_FOUND));
            if (!BROWSER_VOICE.contains(run.mode())) {
                throw new ConflictException(NOT_BROWSER);
            }
            // as a phone call or a chat: an organization out of credits starts no call (402)
            return credits.requireCredit(organizationId)
                    .chain(() -> media.claim(organizationId, workflowId, runId, clock.instant()));
        }).map(claim -> CallAdmission.admitted(claim, organizationId, workflowId, runId));
    }
}
