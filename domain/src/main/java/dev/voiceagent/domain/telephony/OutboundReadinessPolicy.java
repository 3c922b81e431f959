package dev.voiceagent.domain.telephony;

import java.util.Optional;

/** Whether a configuration can place outbound calls, from real prerequisites; empty when ready. */
public final class OutboundReadinessPolicy {

    private OutboundReadinessPolicy() {
    }

    public static Optional<String> blockedReason(ProviderConfiguration configuration, boolean active, int activeNumbers) {
        Provider provider = configuration.provider();
        if (!active) {
            return Optional.of("The configuration is inactive");
        }
        if (!provider.supportsOutbound()) {
            return Optional.of(provider.displayName() + " outbound calling is not available in this service yet");
        }
        if (activeNumbers == 0 && provider != Provider.SIMULATOR) {
            return Optional.of("Add at least one active phone number to call from");
        }
        return Optional.ofNullable(configuration.outboundGap());
    }
}
