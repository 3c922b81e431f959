package dev.voiceagent.adapters.rest.call;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.idempotency.Idempotency;
import dev.voiceagent.application.call.InitiateCallCommand;
import dev.voiceagent.application.call.InitiateCallUseCase;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;

/** A single outbound call through the workflow (a test call from the editor). */
@Path("/api/v1/telephony/initiate-call")
public class CallResource {

    public record InitiateCallRequest(@NotNull Long workflowId, Long workflowRunId, String phoneNumber,
            Long telephonyConfigurationId, Long fromPhoneNumberId) {
    }

    public record InitiateCallResponse(String message, long workflowRunId, String workflowRunName) {
    }

    private final Caller caller;
    private final InitiateCallUseCase initiate;
    private final Idempotency idempotency;

    public CallResource(Caller caller, InitiateCallUseCase initiate, Idempotency idempotency) {
        this.caller = caller;
        this.initiate = initiate;
        this.idempotency = idempotency;
    }

    @POST
    public Uni<InitiateCallResponse> initiate(@NotNull @Valid InitiateCallRequest body,
            @HeaderParam(Idempotency.HEADER) String idempotencyKey) {
        return idempotency.run(caller.principal(), idempotencyKey, "initiate-call", body, InitiateCallResponse.class,
                () -> initiate.initiate(new InitiateCallCommand(caller.principal(), body.workflowId(),
                                body.workflowRunId(), body.phoneNumber(), body.telephonyConfigurationId(),
                                body.fromPhoneNumberId()))
                        .map(call -> new InitiateCallResponse("Call initiated successfully with run name "
                                + call.runName(), call.runId(), call.runName())));
    }
}
