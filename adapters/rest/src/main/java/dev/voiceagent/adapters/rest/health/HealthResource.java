package dev.voiceagent.adapters.rest.health;

import dev.voiceagent.adapters.rest.auth.PublicEndpoint;
import io.smallrye.common.annotation.NonBlocking;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Says the API is reachable, nothing more (no database round trip: that is /q/health/ready). */
@Path("/api/v1/health")
@PublicEndpoint
public class HealthResource {

    public record HealthResponse(
            @Schema(required = true) String status,
            @Schema(required = true) String version,
            @Schema(required = true) String backendApiEndpoint,
            @Schema(nullable = true) String tunnelUrl,
            @Schema(required = true) String deploymentMode,
            @Schema(required = true) String authProvider,
            @Schema(required = true) boolean turnEnabled,
            @Schema(required = true) boolean forceTurnRelay,
            @Schema(required = true) boolean signupEnabled,
            @Schema(nullable = true) String stackProjectId,
            @Schema(nullable = true) String stackPublishableClientKey) {
    }

    private final HealthResponse response;

    public HealthResource(
            @ConfigProperty(name = "quarkus.application.version", defaultValue = "unknown") String version,
            @ConfigProperty(name = "voiceagent.backend-api-endpoint", defaultValue = "http://localhost:8080") String endpoint,
            @ConfigProperty(name = "voiceagent.deployment-mode", defaultValue = "oss") String deploymentMode,
            @ConfigProperty(name = "voiceagent.auth.signup-enabled", defaultValue = "true") boolean signupEnabled) {
        this.response = new HealthResponse("ok", version, endpoint, null, deploymentMode, "local", false, false,
                signupEnabled, null, null);
    }

    @GET
    @NonBlocking
    public HealthResponse health() {
        return response;
    }
}
