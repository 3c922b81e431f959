package dev.voiceagent.application.call;

import dev.voiceagent.domain.campaign.RetryConfig;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/**
 * Out-port: the retry settings of the campaign a call belongs to, which decide whether its contact is called again.
 * The campaign repository serves it; the call reports need nothing else of campaigns.
 */
public interface RetryConfigs {

    Uni<Optional<RetryConfig>> retryConfig(long organizationId, long campaignId);
}
