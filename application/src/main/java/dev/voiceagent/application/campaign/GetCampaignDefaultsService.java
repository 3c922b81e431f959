package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.domain.campaign.RetryConfig;
import io.smallrye.mutiny.Uni;

/** The organization's call limit, the default-outbound configuration's active numbers, the engine's retry defaults. */
public class GetCampaignDefaultsService implements GetCampaignDefaultsUseCase {

    private final CallRepository calls;
    private final TelephonyConfigurationRepository configurations;
    private final CampaignRepository campaigns;
    private final int defaultLimit;

    public GetCampaignDefaultsService(CallRepository calls, TelephonyConfigurationRepository configurations,
            CampaignRepository campaigns, int defaultLimit) {
        this.calls = calls;
        this.configurations = configurations;
        this.campaigns = campaigns;
        this.defaultLimit = Math.max(1, defaultLimit);
    }

    @Override
    public Uni<CampaignDefaults> defaults(Principal principal) {
        long org = principal.organizationId();
        return Uni.combine().all().unis(calls.organizationLimit(org), configurations.list(org), campaigns.latest(org))
                .with((limit, views, latest) -> new CampaignDefaults(limit.orElse(defaultLimit),
                        views.stream().filter(v -> v.configuration().defaultOutbound()).findFirst()
                                .map(TelephonyConfigurationView::activeNumbers).orElse(0),
                        RetryConfig.DEFAULT, latest.map(CampaignView::campaign).orElse(null)));
    }
}
