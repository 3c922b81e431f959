package dev.voiceagent.adapters.rest.calling;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.application.calling.CallingHoursUseCases;
import dev.voiceagent.application.calling.CallingHoursUseCases.CampaignCallingHours;
import dev.voiceagent.domain.calling.CallingHours;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * Legal calling hours in each contact's local time (its timezone column, else its number's zones, the most
 * restrictive when there are several): the organization's window, and a campaign's own, which may narrow it
 * freely; widening needs an override_reason, recorded in the campaign's log.
 */
@Path("/api/v1/organizations/calling-hours")
public class CallingHoursResource {

    static final String TIME = "^([01]\\d|2[0-3]):[0-5]\\d$|^24:00$";

    public record Window(@NotNull @Pattern(regexp = TIME) @Schema(examples = "08:00") String start,
            @NotNull @Pattern(regexp = TIME) @Schema(examples = "21:00") String end) {

        static Window of(CallingHours h) {
            return h == null ? null : new Window(h.startText(), h.endText());
        }

        CallingHours hours() {
            return CallingHours.parse(start, end);
        }
    }

    public record CampaignWindow(@NotNull @Pattern(regexp = TIME) @Schema(examples = "09:00") String start,
            @NotNull @Pattern(regexp = TIME) @Schema(examples = "17:00") String end,
            @Schema(nullable = true, description = "Required when the hours widen the organization's")
            @Size(max = 500) String overrideReason) {
    }

    public record CampaignCallingHoursResponse(Window organization, @Schema(nullable = true) Window campaign,
            @Schema(nullable = true) String overrideReason, Window effective) {

        static CampaignCallingHoursResponse of(CampaignCallingHours h) {
            return new CampaignCallingHoursResponse(Window.of(h.organization()), Window.of(h.campaign()),
                    h.overrideReason(), Window.of(h.effective()));
        }
    }

    private final Caller caller;
    private final CallingHoursUseCases.GetOrganizationCallingHoursUseCase getOrganizationCallingHours;
    private final CallingHoursUseCases.SetOrganizationCallingHoursUseCase setOrganizationCallingHours;

    public CallingHoursResource(Caller caller,
            CallingHoursUseCases.GetOrganizationCallingHoursUseCase getOrganizationCallingHours,
            CallingHoursUseCases.SetOrganizationCallingHoursUseCase setOrganizationCallingHours) {
        this.caller = caller;
        this.getOrganizationCallingHours = getOrganizationCallingHours;
        this.setOrganizationCallingHours = setOrganizationCallingHours;
    }

    @GET
    @Operation(summary = "Get Calling Hours", description = "The organization's window in the contact's local time")
    public Uni<Window> organization() {
        return getOrganizationCallingHours.organization(caller.principal()).map(Window::of);
    }

    @PUT
    @Operation(summary = "Set Calling Hours", description = "HH:MM to HH:MM (24:00 for the end of the day)")
    public Uni<Window> setOrganization(@NotNull @Valid Window body) {
        return setOrganizationCallingHours.setOrganization(caller.principal(), body.hours()).map(Window::of);
    }
}
