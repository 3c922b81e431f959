package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.workflow.RunArtifact;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.util.Map;

/** Public links to a run's artifacts. */
public final class RunArtifactUseCases {

    private RunArtifactUseCases() {
    }

    public interface PublicArtifactLinksUseCase {
        /** A token for each artifact the run has (none for the others). */
        Map<RunArtifact, String> tokens(WorkflowRun run);
    }

    public interface DownloadArtifactUseCase {
        /** Where to fetch the artifact a token names: a short-lived signed URL. 404 for a bad token, 400 for a bad type. */
        Uni<String> locate(String token, String artifactType, boolean inline);
    }
}
