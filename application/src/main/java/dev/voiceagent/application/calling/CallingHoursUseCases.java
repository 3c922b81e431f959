package dev.voiceagent.application.calling;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.calling.CallingHours;
import io.smallrye.mutiny.Uni;

/**
 * Legal calling hours: the organization's window (08:00-21:00 in the contact's local time unless changed) and a
 * campaign's own, which may narrow it freely; widening it needs an override reason, recorded in the campaign log.
 */
public interface CallingHoursUseCases {

    /** What a campaign dials in: its own hours (if any, with the override reason) and the organization's. */
    record CampaignCallingHours(CallingHours organization, CallingHours campaign, String overrideReason) {

        public CallingHours effective() {
            return campaign != null ? campaign : organization;
        }
    }

    interface GetOrganizationCallingHoursUseCase {

        Uni<CallingHours> organization(Principal principal);
    }

    interface SetOrganizationCallingHoursUseCase {

        Uni<CallingHours> setOrganization(Principal principal, CallingHours hours);
    }

    interface GetCampaignCallingHoursUseCase {

        Uni<CampaignCallingHours> campaign(Principal principal, long campaignId);
    }

    interface SetCampaignCallingHoursUseCase {

        Uni<CampaignCallingHours> setCampaign(Principal principal, long campaignId, CallingHours hours,
                String overrideReason);
    }

    interface ClearCampaignCallingHoursUseCase {

        Uni<CampaignCallingHours> clearCampaign(Principal principal, long campaignId);
    }
}
