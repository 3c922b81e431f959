package dev.voiceagent.adapters.rest.publicapi;

import dev.voiceagent.adapters.rest.auth.PublicEndpoint;
import dev.voiceagent.application.workflow.RunArtifactUseCases.DownloadArtifactUseCase;
import io.smallrye.mutiny.Uni;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;

/** A run's recording or transcript behind a signed, expiring link: no credentials, the link is the permission. */
@Path("/api/v1/public/download/workflow/{token}/{artifact_type}")
public class PublicDownloadResource {

    private final DownloadArtifactUseCase download;

    public PublicDownloadResource(DownloadArtifactUseCase download) {
        this.download = download;
    }

    @GET
    @PublicEndpoint
    @Operation(summary = "Download Workflow Artifact", description = "302 to a one-hour signed URL of the artifact;"
            + " 404 for a bad or expired link or a run without that artifact, 400 for an unknown artifact type"
            + " (recording, transcript, user_recording, bot_recording)")
    @APIResponse(responseCode = "302", description = "To the artifact")
    public Uni<Response> download(@PathParam("token") @Size(max = 512) String token,
            @PathParam("artifact_type") @Size(max = 32) String artifactType,
            @QueryParam("inline") @DefaultValue("false") boolean inline) {
        return download.locate(token, artifactType, inline).map(url -> Response.status(302).location(URI.create(url))
                .build());
    }
}
