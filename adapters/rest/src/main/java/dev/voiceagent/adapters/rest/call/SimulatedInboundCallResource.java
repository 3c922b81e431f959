package dev.voiceagent.adapters.rest.call;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.call.SimulateInboundCallUseCase;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * SIMULATOR only (not in the reference): rings one of the organization's simulator numbers from outside, through
 * the same signed inbound webhook a provider would call, to try the number's inbound workflow on a laptop.
 */
@Path("/api/v1/telephony/simulator/inbound-call")
public class SimulatedInboundCallResource {

    public record SimulatedInboundCallRequest(@NotBlank @Size(max = 64) String to,
            @Schema(nullable = true, description = "The caller; +15550000000 when not given") @Size(max = 64) String from) {
    }

    private final Caller caller;
    private final SimulateInboundCallUseCase simulate;

    public SimulatedInboundCallResource(Caller caller, SimulateInboundCallUseCase simulate) {
        this.caller = caller;
        this.simulate = simulate;
    }

    @POST
    @Operation(summary = "Simulate Inbound Call", description = "The simulator rings the number: the inbound webhook's"
            + " answer, {action: stream, stream_url, workflow_run_id} (the run then reports in-progress and completed"
            + " like any simulated call) or {action: reject, reason}; 404 unless it is an active number of one of your"
            + " simulator configurations")
    public Uni<Map<String, Object>> ring(@NotNull @Valid SimulatedInboundCallRequest body) {
        return simulate.ring(caller.principal(), body.to(), body.from());
    }
}
