package dev.voiceagent.application.campaign;

import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.telephony.OutboundConfigurations;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignTransition;
import io.smallrye.mutiny.Uni;
import java.time.Clock;
import java.util.HashSet;
import java.util.Set;

/**
 * Changes a campaign's settings in any state but completed and failed. A new max_concurrency is
 * checked against the campaign's own telephony configuration, as at create.
 */
public class UpdateCampaignService implements UpdateCampaignUseCase {

    private final CampaignRepository campaigns;
    private final TelephonyConfigurationRepository configurations;
    private final CallRepository calls;
    private final Clock clock;
    private final int defaultLimit;

    public UpdateCampaignService(CampaignRepository campaigns, TelephonyConfigurationRepository configurations,
            CallRepository calls, Clock clock, int defaultLimit) {
        this.campaigns = campaigns;
        this.configurations = configurations;
        this.calls = calls;
        this.clock = clock;
        this.defaultLimit = Math.max(1, defaultLimit);
    }

    @Override
    public Uni<CampaignView> update(UpdateCampaignCommand c) {
        long org = c.principal().organizationId();
        return Campaigns.find(campaigns, org, c.campaignId()).chain(before -> {
            CampaignTransition change = before.update(c.name(), c.retryConfig(), c.maxConcurrency(), c.scheduleConfig(),
                    c.circuitBreaker(), clock.instant());
            Uni<Void> checked = c.maxConcurrency() == null ? Uni.createFrom().voidItem()
                    : OutboundConfigurations.resolve(configurations, org, before.telephonyConfigurationId())
                            .chain(view -> ConcurrencyLimit.check(calls, defaultLimit, org, c.maxConcurrency(), view));
            Set<String> changed = new HashSet<>(Campaign.changedSettings(c.name(), c.retryConfig(), c.maxConcurrency(),
                    c.scheduleConfig(), c.circuitBreaker()));
            return checked.chain(() -> campaigns.applySettings(before, change, changed)).chain(applied -> {
                if (!applied) {
                    throw new ConflictException("The campaign was changed by another request; please retry");
                }
                return campaigns.findView(org, c.campaignId()).map(found -> found.orElseThrow());
            });
        });
    }
}
