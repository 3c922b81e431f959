package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.workflow.RunArtifact;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import java.util.EnumMap;
import java.util.Map;

/** Public links to a run's artifacts. */
public final class RunArtifactUseCases {

    private RunArtifactUseCases() {
    }

    public interface PublicArtifactLinksUseCase {
        /** Where a public link points, below the service's public base URL; the token and the artifact type follow. */
        String PUBLIC_DOWNLOAD_PATH = "/api/v1/public/download/workflow/";

        /** {base}/api/v1/public/download/workflow/{token}/{type}: following it downloads the artifact. */
        static String publicLink(String base, String token, RunArtifact artifact) {
            return base + PUBLIC_DOWNLOAD_PATH + token + "/" + artifact.wireName();
        }

        /** A token for each artifact the run has (none for the others). */
        Map<RunArtifact, String> tokens(WorkflowRun run);

        /** The public link of each artifact the run has (none for the others), signed now. */
        default Map<RunArtifact, String> links(WorkflowRun run, String base) {
            Map<RunArtifact, String> links = new EnumMap<>(RunArtifact.class);
            tokens(run).forEach((artifact, token) -> links.put(artifact, publicLink(base, token, artifact)));
            return links;
        }
    }

    public interface DownloadArtifactUseCase {
        /** Where to fetch the artifact a token names: a short-lived signed URL. 404 for a bad token, 400 for a bad type. */
        Uni<String> locate(String token, String artifactType, boolean inline);
    }
}
