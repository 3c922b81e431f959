package dev.voiceagent.adapters.rest.organization;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.organization.GetOrganizationPreferencesUseCase;
import dev.voiceagent.application.organization.UpdateOrganizationPreferencesUseCase;
import dev.voiceagent.domain.account.OrganizationPreferences;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

@Path("/api/v1/organizations/preferences")
public class OrganizationPreferencesResource {

    @Schema(name = "OrganizationPreferences")
    public record OrganizationPreferencesBody(@Schema(nullable = true) String testPhoneNumber,
            @Schema(nullable = true) String timezone,
            @Schema(defaultValue = "false") Boolean externalPbxIntegrationsEnabled) {

        static OrganizationPreferencesBody of(OrganizationPreferences p) {
            return new OrganizationPreferencesBody(p.testPhoneNumber(), p.timezone(), p.externalPbxIntegrationsEnabled());
        }
    }

    private final Caller caller;
    private final GetOrganizationPreferencesUseCase get;
    private final UpdateOrganizationPreferencesUseCase update;

    public OrganizationPreferencesResource(Caller caller, GetOrganizationPreferencesUseCase get,
            UpdateOrganizationPreferencesUseCase update) {
        this.caller = caller;
        this.get = get;
        this.update = update;
    }

    @GET
    public Uni<OrganizationPreferencesBody> get() {
        return get.get(caller.principal()).map(OrganizationPreferencesBody::of);
    }

    @PUT
    public Uni<OrganizationPreferencesBody> put(@NotNull @Valid OrganizationPreferencesBody body) {
        return update.update(caller.principal(), new OrganizationPreferences(body.testPhoneNumber(), body.timezone(),
                Boolean.TRUE.equals(body.externalPbxIntegrationsEnabled()))).map(OrganizationPreferencesBody::of);
    }
}
