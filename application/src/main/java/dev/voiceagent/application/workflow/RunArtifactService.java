package dev.voiceagent.application.workflow;

import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.application.storage.ObjectStore;
import dev.voiceagent.application.workflow.RunArtifactUseCases.DownloadArtifactUseCase;
import dev.voiceagent.application.workflow.RunArtifactUseCases.PublicArtifactLinksUseCase;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.RunArtifact;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumMap;
import java.util.Map;

/**
 * Public links to a run's recordings and transcript: a token signed for one artifact of one run that
 * expires ({@code linkTtl}); following it redirects to a short-lived signed URL of the object store.
 */
public class RunArtifactService implements PublicArtifactLinksUseCase, DownloadArtifactUseCase {

    static final String INVALID = "Invalid or expired link";
    static final Duration DOWNLOAD_TTL = Duration.ofHours(1);

    private final ArtifactLinks links;
    private final WorkflowRunRepository runs;
    private final ObjectStore objects;
    private final Clock clock;
    private final Duration linkTtl;

    public RunArtifactService(ArtifactLinks links, WorkflowRunRepository runs, ObjectStore objects, Clock clock,
            Duration linkTtl) {
        this.links = links;
        this.runs = runs;
        this.objects = objects;
        this.clock = clock;
        this.linkTtl = linkTtl;
    }

    @Override
    public Map<RunArtifact, String> tokens(WorkflowRun run) {
        Map<RunArtifact, String> out = new EnumMap<>(RunArtifact.class);
        Instant expires = clock.instant().plus(linkTtl);
        for (RunArtifact artifact : RunArtifact.values()) {
            String location = artifact.locationIn(run);
            if (location != null && !location.isBlank()) {
                out.put(artifact, links.token(run.id(), artifact, expires));
            }
        }
        return out;
    }

    @Override
    public Uni<String> locate(String token, String artifactType, boolean inline) {
        RunArtifact artifact = RunArtifact.fromWireName(artifactType).orElseThrow(() -> new DomainRuleViolation(
                "Invalid artifact type: one of recording, transcript, user_recording, bot_recording"));
        ArtifactLinks.Link link = links.verify(token, clock.instant()).filter(l -> l.artifact() == artifact)
                .orElseThrow(() -> new ResourceNotFoundException(INVALID));
        return runs.findById(link.runId()).chain(found -> {
            String location = found.map(artifact::locationIn).orElse(null);
            if (location == null || location.isBlank()) {
                throw new ResourceNotFoundException("This run has no " + artifact.wireName());
            }
            if (location.startsWith("https://") || location.startsWith("http://")) {
                return Uni.createFrom().item(location);
            }
            return objects.signedDownloadUrl(location, DOWNLOAD_TTL, inline);
        });
    }
}
