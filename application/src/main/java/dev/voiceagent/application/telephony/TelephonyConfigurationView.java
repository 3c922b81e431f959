package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.OutboundReadinessPolicy;
import dev.voiceagent.domain.telephony.TelephonyConfiguration;
import java.util.Optional;

/** A configuration with its active number count and what (if anything) blocks outbound calls. */
public record TelephonyConfigurationView(TelephonyConfiguration configuration, int activeNumbers,
        Optional<String> outboundBlockedReason) {

    public static TelephonyConfigurationView of(TelephonyConfiguration configuration, int activeNumbers) {
        return new TelephonyConfigurationView(configuration, activeNumbers, OutboundReadinessPolicy.blockedReason(
                configuration.configuration(), configuration.active(), activeNumbers));
    }

    public boolean readyForOutbound() {
        return outboundBlockedReason.isEmpty();
    }
}
