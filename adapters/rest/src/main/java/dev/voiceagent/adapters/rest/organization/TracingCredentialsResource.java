package dev.voiceagent.adapters.rest.organization;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.organization.TracingCredentialsUseCases.DeleteTracingCredentialsUseCase;
import dev.voiceagent.application.organization.TracingCredentialsUseCases.GetTracingCredentialsUseCase;
import dev.voiceagent.application.organization.TracingCredentialsUseCases.SaveTracingCredentialsUseCase;
import dev.voiceagent.domain.account.TracingCredentials;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Where the organization's call traces go (Langfuse). The keys are sealed at rest and masked on output; a
 * masked key sent back keeps the stored one. Read from the database on every request, so every replica
 * sees a change at once.
 */
@Path("/api/v1/organizations/tracing-credentials")
public class TracingCredentialsResource {

    public record LangfuseCredentialsRequest(@NotBlank @Size(max = 2048) String host,
            @NotBlank @Size(max = 2048) String publicKey, @NotBlank @Size(max = 2048) String secretKey,
            @NotBlank @Size(min = 1, max = 2048) String projectId) {
    }

    public record LangfuseCredentialsResponse(@Schema(defaultValue = "") String host,
            @Schema(defaultValue = "", description = "Masked") String publicKey,
            @Schema(defaultValue = "", description = "Masked") String secretKey,
            @Schema(defaultValue = "") String projectId, @Schema(defaultValue = "false") boolean configured) {

        static final LangfuseCredentialsResponse NONE = new LangfuseCredentialsResponse("", "", "", "", false);

        static LangfuseCredentialsResponse of(TracingCredentials c) {
            return new LangfuseCredentialsResponse(c.host(), c.publicKey(), c.secretKey(), c.projectId(), true);
        }
    }

    @Schema(name = "TracingCredentialsActionResponse")
    public record ActionResponse(boolean success, String message) {
    }

    private final GetTracingCredentialsUseCase get;
    private final SaveTracingCredentialsUseCase save;
    private final DeleteTracingCredentialsUseCase delete;
    private final Caller caller;

    public TracingCredentialsResource(GetTracingCredentialsUseCase get, SaveTracingCredentialsUseCase save,
            DeleteTracingCredentialsUseCase delete, Caller caller) {
        this.get = get;
        this.save = save;
        this.delete = delete;
        this.caller = caller;
    }

    @GET
    @Operation(summary = "Get Langfuse Credentials", description = "The keys masked (all but the last 4 characters)"
            + " and configured: true; empty strings and configured: false when none are set")
    public Uni<LangfuseCredentialsResponse> get() {
        return get.get(caller.principal())
                .map(found -> found.map(LangfuseCredentialsResponse::of).orElse(LangfuseCredentialsResponse.NONE));
    }

    @POST
    @Operation(summary = "Save Langfuse Credentials", description = "Replaces the organization's credentials; a key"
            + " sent back exactly as GET showed it keeps the stored key. Answers the saved credentials, masked")
    public Uni<LangfuseCredentialsResponse> save(@NotNull @Valid LangfuseCredentialsRequest body) {
        return save.save(caller.principal(), new TracingCredentials(TracingCredentials.LANGFUSE, body.host(),
                body.publicKey(), body.secretKey(), body.projectId())).map(LangfuseCredentialsResponse::of);
    }

    @DELETE
    @Operation(summary = "Delete Langfuse Credentials", description = "404 when none are set")
    public Uni<ActionResponse> delete() {
        return delete.delete(caller.principal())
                .replaceWith(new ActionResponse(true, "Tracing credentials deleted successfully"));
    }
}
