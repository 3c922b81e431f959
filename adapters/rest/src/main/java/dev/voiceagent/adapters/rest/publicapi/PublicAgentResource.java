package dev.voiceagent.adapters.rest.publicapi;

import dev.voiceagent.adapters.rest.auth.PublicEndpoint;
import dev.voiceagent.application.call.InitiatedCall;
import dev.voiceagent.application.call.TriggerCallUseCase;
import dev.voiceagent.application.call.TriggerCallUseCase.Target;
import dev.voiceagent.application.call.TriggerCallUseCase.TriggerCall;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Calls placed by a program through an agent (the reference's public agent triggers): X-API-Key is required
 * (missing: 422, invalid: 401); {uuid} is a trigger node's trigger path, {workflow_uuid} the workflow's uuid.
 * The test variants use the draft, the others the published version.
 */
@Path("/api/v1/public/agent")
public class PublicAgentResource {

    @Schema(description = "Request model for triggering a call via API")
    public record TriggerCallRequest(@NotBlank @Size(max = 64) String phoneNumber,
            @Schema(nullable = true) Map<String, Object> initialContext,
            @Schema(nullable = true) Long telephonyConfigurationId, @Schema(nullable = true) Long fromPhoneNumberId) {

        TriggerCall call() {
            return new TriggerCall(phoneNumber, initialContext, telephonyConfigurationId, fromPhoneNumberId);
        }
    }

    @Schema(description = "Response model for successful call initiation")
    public record TriggerCallResponse(String status, long workflowRunId, String workflowRunName) {

        static TriggerCallResponse of(InitiatedCall call) {
            return new TriggerCallResponse("initiated", call.runId(), call.runName());
        }
    }

    private final TriggerCallUseCase trigger;

    public PublicAgentResource(TriggerCallUseCase trigger) {
        this.trigger = trigger;
    }

    @POST
    @Path("/{uuid}")
    @PublicEndpoint
    @Operation(summary = "Initiate Call", description = "Through the trigger node with this trigger path, on the"
            + " published version: {status: initiated, workflow_run_id, workflow_run_name WR-API-####}; 404 for an"
            + " unknown or disabled trigger or an archived workflow, 429 at the concurrency limit, 400 when telephony"
            + " is not ready")
    public Uni<TriggerCallResponse> byTrigger(@PathParam("uuid") @Size(max = 64) String uuid,
            @HeaderParam("X-API-Key") @NotNull @Size(max = 512) String apiKey,
            @NotNull @Valid TriggerCallRequest body) {
        return trigger.trigger(apiKey, Target.TRIGGER_PATH, uuid, false, body.call()).map(TriggerCallResponse::of);
    }

    @POST
    @Path("/test/{uuid}")
    @PublicEndpoint
    @Operation(summary = "Initiate Test Call", description = "As the trigger call, on the draft (WR-TEST-####)")
    public Uni<TriggerCallResponse> testByTrigger(@PathParam("uuid") @Size(max = 64) String uuid,
            @HeaderParam("X-API-Key") @NotNull @Size(max = 512) String apiKey,
            @NotNull @Valid TriggerCallRequest body) {
        return trigger.trigger(apiKey, Target.TRIGGER_PATH, uuid, true, body.call()).map(TriggerCallResponse::of);
    }

    @POST
    @Path("/workflow/{workflow_uuid}")
    @PublicEndpoint
    @Operation(summary = "Initiate Call By Workflow", description = "Through the workflow with this uuid, on its"
            + " published version")
    public Uni<TriggerCallResponse> byWorkflow(@PathParam("workflow_uuid") @Size(max = 64) String workflowUuid,
            @HeaderParam("X-API-Key") @NotNull @Size(max = 512) String apiKey,
            @NotNull @Valid TriggerCallRequest body) {
        return trigger.trigger(apiKey, Target.WORKFLOW_UUID, workflowUuid, false, body.call())
                .map(TriggerCallResponse::of);
    }

    @POST
    @Path("/test/workflow/{workflow_uuid}")
    @PublicEndpoint
    @Operation(summary = "Initiate Test Call By Workflow", description = "Through the workflow with this uuid, on its"
            + " draft")
    public Uni<TriggerCallResponse> testByWorkflow(@PathParam("workflow_uuid") @Size(max = 64) String workflowUuid,
            @HeaderParam("X-API-Key") @NotNull @Size(max = 512) String apiKey,
            @NotNull @Valid TriggerCallRequest body) {
        return trigger.trigger(apiKey, Target.WORKFLOW_UUID, workflowUuid, true, body.call())
                .map(TriggerCallResponse::of);
    }
}
