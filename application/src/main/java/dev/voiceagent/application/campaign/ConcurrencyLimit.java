package dev.voiceagent.application.campaign;

import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.telephony.TelephonyConfigurationView;
import dev.voiceagent.domain.shared.DomainRuleViolation;
import io.smallrye.mutiny.Uni;

/** max_concurrency may not exceed the organization's call limit, nor the active numbers that can place the calls. */
final class ConcurrencyLimit {

    private ConcurrencyLimit() {
    }

    static Uni<Void> check(CallRepository calls, int defaultLimit, long org, Integer requested,
            TelephonyConfigurationView view) {
        if (requested == null) {
            return Uni.createFrom().voidItem();
        }
        return calls.organizationLimit(org).map(limit -> {
            int orgLimit = limit.orElse(defaultLimit);
            int numbers = view.activeNumbers();
            int effective = numbers > 0 ? Math.min(orgLimit, numbers) : orgLimit;
            if (requested > effective) {
                throw new DomainRuleViolation(numbers > 0 && numbers < orgLimit
                        ? "max_concurrency (" + requested + ") cannot exceed " + effective + ". You have " + numbers
                                + " phone number(s) configured. Add more CLIs in telephony configuration to increase concurrency."
                        : "max_concurrency (" + requested + ") cannot exceed organization limit (" + effective + ")");
            }
            return null;
        });
    }
}
