package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.ProviderConfiguration;

/** The callback adapter's check of a request against the configuration the call was placed with. */
@FunctionalInterface
public interface SignatureCheck {

    /** Already verified by the adapter with its own key (the simulator's reports). */
    SignatureCheck VERIFIED_BY_ADAPTER = configuration -> true;

    boolean verify(ProviderConfiguration configuration);
}
