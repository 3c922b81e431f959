package dev.voiceagent.application.telephony;

import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;

/**
 * Out-port: a carrier account's credentials checked with the carrier itself when a configuration is saved, so that a
 * wrong key is told at once rather than by the first call that cannot be placed.
 */
public interface CarrierAccounts {

    /**
     * Asks the carrier whether it takes these credentials. Fails with a
     * {@link dev.voiceagent.domain.shared.DomainRuleViolation} (a 400) saying which the carrier refused, or an
     * {@link dev.voiceagent.application.shared.UpstreamServiceException} (a 502) when the carrier could not be asked.
     * Carriers this service does not ask (the simulator) pass.
     */
    Uni<Void> verify(ProviderConfiguration configuration);

    /** Checks nothing (where no carrier can be reached, as in unit tests). */
    CarrierAccounts NONE = configuration -> Uni.createFrom().voidItem();
}
