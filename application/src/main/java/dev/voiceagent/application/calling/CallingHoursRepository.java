package dev.voiceagent.application.calling;

import dev.voiceagent.domain.calling.CallingHours;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** Out-port: an organization's calling hours and a campaign's own. */
public interface CallingHoursRepository {

    /** A campaign's own hours and, when they widen the organization's, the reason recorded for it. */
    record CampaignHours(CallingHours hours, String overrideReason) {
    }

    /** Empty when the organization follows the installation's default. */
    Uni<Optional<CallingHours>> organization(long organizationId);

    Uni<Void> setOrganization(long organizationId, CallingHours hours);

    /** Empty when the campaign follows the organization's hours. */
    Uni<Optional<CampaignHours>> campaign(long organizationId, long campaignId);

    Uni<Void> setCampaign(long organizationId, long campaignId, CampaignHours hours);

    Uni<Boolean> clearCampaign(long organizationId, long campaignId);
}
