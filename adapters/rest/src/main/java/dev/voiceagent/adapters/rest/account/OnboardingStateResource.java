package dev.voiceagent.adapters.rest.account;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.account.OnboardingUseCases.GetOnboardingStateUseCase;
import dev.voiceagent.application.account.OnboardingUseCases.UpdateOnboardingStateUseCase;
import dev.voiceagent.domain.account.OnboardingState;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import java.time.Instant;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The caller's onboarding: when it was completed or skipped, the tooltips seen and the actions done. */
@Path("/api/v1/user/onboarding-state")
public class OnboardingStateResource {

    @Schema(name = "OnboardingState")
    public record OnboardingStateBody(
            @Schema(nullable = true, type = SchemaType.STRING, format = "date-time", implementation = String.class)
            Instant completedAt,
            @Schema(defaultValue = "false") boolean skipped, List<String> seenTooltips, List<String> completedActions) {

        static OnboardingStateBody of(OnboardingState s) {
            return new OnboardingStateBody(s.completedAt(), s.skipped(), s.seenTooltips(), s.completedActions());
        }
    }

    @Schema(name = "OnboardingStateUpdate", description = "Scalars overwrite when given; list entries are added to"
            + " the stored lists, so two tabs marking different tooltips keep both")
    public record OnboardingStateUpdate(
            @Schema(nullable = true, type = SchemaType.STRING, format = "date-time", implementation = String.class)
            Instant completedAt,
            @Schema(nullable = true) Boolean skipped,
            @Schema(nullable = true) @Size(max = 200) List<String> seenTooltips,
            @Schema(nullable = true) @Size(max = 200) List<String> completedActions) {
    }

    private final GetOnboardingStateUseCase get;
    private final UpdateOnboardingStateUseCase update;
    private final Caller caller;

    public OnboardingStateResource(GetOnboardingStateUseCase get, UpdateOnboardingStateUseCase update, Caller caller) {
        this.get = get;
        this.update = update;
        this.caller = caller;
    }

    @GET
    @Operation(summary = "Get User Onboarding State", description = "The stored state; an empty one for a new user")
    public Uni<OnboardingStateBody> get() {
        return get.get(caller.principal()).map(OnboardingStateBody::of);
    }

    @PUT
    @Operation(summary = "Update User Onboarding State", description = "Merged into the stored state: scalars"
            + " overwrite when given, list entries are unioned (entries of 1 to 100 characters, at most 200 per list)")
    public Uni<OnboardingStateBody> update(@NotNull @Valid OnboardingStateUpdate body) {
        return update.update(caller.principal(), body.completedAt(), body.skipped(), body.seenTooltips(),
                body.completedActions()).map(OnboardingStateBody::of);
    }
}
