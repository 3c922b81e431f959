package dev.voiceagent.adapters.rest.organization;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.organization.TracingCredentialsUseCases.DeleteTracingCredentialsUseCase;
import dev.voiceagent.application.organization.TracingCredentialsUseCases.GetTracingCredentialsUseCase;
import dev.voiceagent.application.organization.TracingCredentialsUseCases.SaveTracingCredentialsUseCase;
import jakarta.ws.rs.Path;

/** The reference's /langfuse-credentials spelling of the same three operations. */
@Path("/api/v1/organizations/langfuse-credentials")
public class LangfuseCredentialsResource extends TracingCredentialsResource {

    public LangfuseCredentialsResource(GetTracingCredentialsUseCase get, SaveTracingCredentialsUseCase save,
            DeleteTracingCredentialsUseCase delete, Caller caller) {
        super(get, save, delete, caller);
    }
}
