package dev.voiceagent.domain.telephony;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Whether a configuration can place outbound calls, from real prerequisites: its set-up checklist,
 * from which readiness is derived (a configuration cannot be ready while a blocking step is open).
 */
public final class OutboundReadinessPolicy {

    private OutboundReadinessPolicy() {
    }

    /** Every step, in the order to do them: credentials, activity, this service's gateway, numbers, the provider's own. */
    public static List<SetupStep> checklist(ProviderConfiguration configuration, boolean active, int activeNumbers) {
        Provider provider = configuration.provider();
        List<SetupStep> steps = new ArrayList<>();
        steps.add(SetupStep.blocking("credentials", "Provider credentials",
                "The " + provider.displayName() + " account's credentials, checked when saved", true, null));
        steps.add(SetupStep.blocking("active", "Configuration active",
                "An inactive configuration places no calls; reactivate it to use it", active,
                "The configuration is inactive"));
        steps.add(SetupStep.blocking("outbound_gateway", "Outbound calling",
                "Whether this service can place calls through " + provider.displayName(), provider.supportsOutbound(),
                provider.displayName() + " calls cannot talk in this service yet (the voice runtime does not speak its"
                        + " media protocol), so none are placed: a call that would be silent is never dialled"));
        if (provider != Provider.SIMULATOR) {
            steps.add(SetupStep.blocking("phone_number", "A number to call from",
                    "At least one active phone number of this configuration, used as the caller id", activeNumbers > 0,
                    "Add at least one active phone number to call from"));
        }
        steps.addAll(configuration.providerSteps());
        return List.copyOf(steps);
    }

    public static Optional<String> blockedReason(ProviderConfiguration configuration, boolean active, int activeNumbers) {
        return blockedReason(checklist(configuration, active, activeNumbers));
    }

    /** The reason of the first open blocking step; empty when ready. */
    public static Optional<String> blockedReason(List<SetupStep> checklist) {
        return checklist.stream().filter(step -> step.blocksOutbound() && !step.complete()).findFirst()
                .map(SetupStep::blockedReason);
    }
}
