package dev.voiceagent.application.campaign;

import jakarta.inject.Singleton;
import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;
import java.time.Clock;

/**
 * created -> syncing; the dispatcher's import tick (any replica) then loads the contacts, so an
 * import interrupted by a crash is taken over (a redial, whose contacts exist, goes straight to
 * running). Without any telephony configuration: 400 (the reference's 401 was a bug), checked after the
 * campaign is found in the caller's organization (the reference checked it first).
 */
@Singleton
public class StartCampaignService implements StartCampaignUseCase {

    static final String NO_TELEPHONY = "You must configure telephony first";

    private final CampaignRepository campaigns;
    private final TelephonyConfigurationRepository configurations;
    private final Clock clock;

    public StartCampaignService(CampaignRepository campaigns, TelephonyConfigurationRepository configurations,
            Clock clock) {
        this.campaigns = campaigns;
        this.configurations = configurations;
        this.clock = clock;
    }

    @Override
    public Uni<CampaignView> start(Principal principal, long campaignId) {
        long org = principal.organizationId();
        // ownership first: another organization's (or a missing) campaign is a 404 whatever its own set-up
        return Campaigns.find(campaigns, org, campaignId).call(() -> requireTelephony(configurations, org))
                .chain(before -> Campaigns.transition(campaigns, before, campaign -> campaign.start(clock.instant())));
    }

    /** The organization has at least one telephony configuration, else 400 {@link #NO_TELEPHONY}. */
    static Uni<Void> requireTelephony(TelephonyConfigurationRepository configurations, long org) {
        return configurations.exists(org).invoke(exists -> {
            if (!exists) {
                throw new DomainRuleViolation(NO_TELEPHONY);
            }
        }).replaceWithVoid();
    }
}
