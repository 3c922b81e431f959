package dev.voiceagent.adapters.rest.health;

import dev.voiceagent.adapters.rest.auth.PublicEndpoint;
import dev.voiceagent.application.health.CountReplicaCallsUseCase;
import dev.voiceagent.application.health.GetAutoscaleMetricUseCase;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import io.vertx.core.http.HttpServerRequest;
import dev.voiceagent.adapters.rest.shared.PublicBaseUrl;
import org.eclipse.microprofile.openapi.annotations.Operation;
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

    @Schema(name = "ActiveCallsResponse", title = "ActiveCallsResponse")
    public record ActiveCallsResponse(
            @Schema(required = true, title = "Active Calls") long activeCalls,
            @Schema(title = "Loop Lag P95 Ms", defaultValue = "0.0") double loopLagP95Ms,
            @Schema(title = "Loop Lag Max Ms", defaultValue = "0.0") double loopLagMaxMs) {
    }

    @Schema(name = "AutoscaleMetricResponse", title = "AutoscaleMetricResponse")
    public record AutoscaleMetricResponse(@Schema(required = true, title = "Value") long value) {
    }

    private final String version;
    private final PublicBaseUrl publicBaseUrl;
    private final String deploymentMode;
    private final boolean signupEnabled;
    private final DevopsSecret secret;
    private final GetAutoscaleMetricUseCase autoscale;
    private final CountReplicaCallsUseCase replicaCalls;
    private final EventLoopLag lag;

    public HealthResource(DevopsSecret secret, GetAutoscaleMetricUseCase autoscale, CountReplicaCallsUseCase replicaCalls,
            EventLoopLag lag,
            @ConfigProperty(name = "quarkus.application.version", defaultValue = "unknown") String version,
            PublicBaseUrl publicBaseUrl,
            @ConfigProperty(name = "voiceagent.deployment-mode", defaultValue = "oss") String deploymentMode,
            @ConfigProperty(name = "voiceagent.auth.signup-enabled", defaultValue = "true") boolean signupEnabled) {
        this.secret = secret;
        this.autoscale = autoscale;
        this.replicaCalls = replicaCalls;
        this.lag = lag;
        this.version = version;
        this.publicBaseUrl = publicBaseUrl;
        this.deploymentMode = deploymentMode;
        this.signupEnabled = signupEnabled;
    }

    /**
     * backend_api_endpoint: the configured public base URL (voiceagent.public-base-url), else the address
     * this service really listens on (the port the request came in on), never a fixed string.
     */
    @GET
    @NonBlocking
    public HealthResponse health(@Context HttpServerRequest request) {
        return new HealthResponse("ok", version, publicBaseUrl.of(request), null, deploymentMode, "local", false, false, signupEnabled,
                null, null);
    }

    /** This replica's live calls (the drain signal) and its event-loop lag. Operations secret required. */
    @GET
    @Path("/active-calls")
    @Operation(summary = "Active Calls", description = "Live calls this replica placed (what a draining replica"
            + " waits for) and its event-loop lag over the last minute. Needs the operations secret"
            + " (X-Devops-Secret or X-Dograh-Devops-Secret): 503 when none is configured, 403 when wrong.")
    public Uni<ActiveCallsResponse> activeCalls(@HeaderParam(DevopsSecret.HEADER) String given,
            @HeaderParam(DevopsSecret.REFERENCE_HEADER) String givenReference) {
        secret.check(given, givenReference);
        double[] loop = lag.p95AndMax();
        return replicaCalls.thisReplicaActive().map(calls -> new ActiveCallsResponse(calls, loop[0], loop[1]));
    }

    /** The fleet's live calls plus a warm buffer, from the call ledger; 503 (never 0) when it cannot be read. */
    @GET
    @Path("/autoscale-metric")
    @Operation(summary = "Autoscale Metric", description = "value = live calls of the whole fleet (from the call"
            + " ledger, stale calls excluded) + max(0, buffer): the autoscaler's signal. 503 when the count cannot be"
            + " read, never 0. Needs the operations secret.")
    public Uni<AutoscaleMetricResponse> autoscaleMetric(@QueryParam("buffer") @DefaultValue("0") long buffer,
            @HeaderParam(DevopsSecret.HEADER) String given,
            @HeaderParam(DevopsSecret.REFERENCE_HEADER) String givenReference) {
        secret.check(given, givenReference);
        return autoscale.autoscaleMetric(buffer).map(AutoscaleMetricResponse::new);
    }
}
