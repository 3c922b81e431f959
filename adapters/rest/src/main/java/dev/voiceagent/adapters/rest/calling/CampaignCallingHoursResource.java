package dev.voiceagent.adapters.rest.calling;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.calling.CallingHoursResource.CampaignCallingHoursResponse;
import dev.voiceagent.adapters.rest.calling.CallingHoursResource.CampaignWindow;
import dev.voiceagent.application.calling.CallingHoursUseCases;
import dev.voiceagent.domain.calling.CallingHours;
import io.smallrye.mutiny.Uni;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;

/** A campaign's own calling hours (another organization's campaign is a 404). */
@Path("/api/v1/campaign/{campaign_id}/calling-hours")
public class CampaignCallingHoursResource {

    private final Caller caller;
    private final CallingHoursUseCases.GetCampaignCallingHoursUseCase getCampaignCallingHours;
    private final CallingHoursUseCases.SetCampaignCallingHoursUseCase setCampaignCallingHours;
    private final CallingHoursUseCases.ClearCampaignCallingHoursUseCase clearCampaignCallingHours;

    public CampaignCallingHoursResource(Caller caller,
            CallingHoursUseCases.GetCampaignCallingHoursUseCase getCampaignCallingHours,
            CallingHoursUseCases.SetCampaignCallingHoursUseCase setCampaignCallingHours,
            CallingHoursUseCases.ClearCampaignCallingHoursUseCase clearCampaignCallingHours) {
        this.caller = caller;
        this.getCampaignCallingHours = getCampaignCallingHours;
        this.setCampaignCallingHours = setCampaignCallingHours;
        this.clearCampaignCallingHours = clearCampaignCallingHours;
    }

    @GET
    @Operation(summary = "Get Campaign Calling Hours", description = "The campaign's own hours, the organization's"
            + " and the ones it dials in")
    public Uni<CampaignCallingHoursResponse> campaign(@PathParam("campaign_id") long campaignId) {
        return getCampaignCallingHours.campaign(caller.principal(), campaignId).map(CampaignCallingHoursResponse::of);
    }

    @PUT
    @Operation(summary = "Set Campaign Calling Hours", description = "Narrowing the organization's hours is free;"
            + " widening them needs override_reason (400 without), and is logged")
    public Uni<CampaignCallingHoursResponse> setCampaign(@PathParam("campaign_id") long campaignId,
            @NotNull @Valid CampaignWindow body) {
        return setCampaignCallingHours.setCampaign(caller.principal(), campaignId,
                CallingHours.parse(body.start(), body.end()),
                body.overrideReason()).map(CampaignCallingHoursResponse::of);
    }

    @DELETE
    @Operation(summary = "Clear Campaign Calling Hours", description = "The campaign follows the organization's"
            + " hours again")
    public Uni<CampaignCallingHoursResponse> clearCampaign(@PathParam("campaign_id") long campaignId) {
        return clearCampaignCallingHours.clearCampaign(caller.principal(), campaignId)
                .map(CampaignCallingHoursResponse::of);
    }
}
