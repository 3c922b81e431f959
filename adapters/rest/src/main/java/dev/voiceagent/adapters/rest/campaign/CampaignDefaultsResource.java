package dev.voiceagent.adapters.rest.campaign;

import dev.voiceagent.adapters.rest.auth.Caller;
import dev.voiceagent.adapters.rest.campaign.CampaignResponses.CircuitBreakerConfigResponse;
import dev.voiceagent.adapters.rest.campaign.CampaignResponses.RetryConfigResponse;
import dev.voiceagent.adapters.rest.campaign.CampaignResponses.ScheduleConfigResponse;
import dev.voiceagent.application.campaign.GetCampaignDefaultsUseCase;
import dev.voiceagent.domain.campaign.Campaign;
import io.smallrye.mutiny.Uni;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

@Path("/api/v1/organizations/campaign-defaults")
public class CampaignDefaultsResource {

    public record LastCampaignSettings(RetryConfigResponse retryConfig, Integer maxConcurrency,
            ScheduleConfigResponse scheduleConfig, CircuitBreakerConfigResponse circuitBreaker) {

        static LastCampaignSettings of(Campaign c) {
            return c == null ? null : new LastCampaignSettings(RetryConfigResponse.of(c.retryConfig()), c.maxConcurrency(),
                    ScheduleConfigResponse.of(c.scheduleConfig()), CircuitBreakerConfigResponse.of(c.effectiveCircuitBreaker()));
        }
    }

    @Schema(name = "CampaignDefaultsResponse")
    public record CampaignDefaultsResponse(int concurrentCallLimit, int fromNumbersCount,
            RetryConfigResponse defaultRetryConfig, @Schema(nullable = true) LastCampaignSettings lastCampaignSettings) {
    }

    private final Caller caller;
    private final GetCampaignDefaultsUseCase defaults;

    public CampaignDefaultsResource(Caller caller, GetCampaignDefaultsUseCase defaults) {
        this.caller = caller;
        this.defaults = defaults;
    }

    @GET
    public Uni<CampaignDefaultsResponse> get() {
        return defaults.defaults(caller.principal()).map(d -> new CampaignDefaultsResponse(d.concurrentCallLimit(),
                d.fromNumbersCount(), RetryConfigResponse.of(d.defaultRetryConfig()),
                LastCampaignSettings.of(d.lastCampaign())));
    }
}
