package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.telephony.ProviderConfiguration;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** Out-port: one provider's outbound calls. Status reports come back through its callback route. */
public interface CallGateway {

    Provider provider();

    /** Places the call; the provider's call id. Fails with CallGatewayException when the provider refuses. */
    Uni<String> originate(OutboundCall call);

    Uni<Void> hangUp(ProviderConfiguration configuration, String providerCallId);

    /**
     * Hands a live call to the transfer's destination (a phone number or a SIP URI), ringing it up to its timeout and
     * whispering to whoever answers where the provider can; the call's media stream ends. Fails with
     * CallGatewayException when the provider refuses or cannot.
     */
    default Uni<Void> transfer(ProviderConfiguration configuration, String providerCallId, Transfer transfer) {
        return Uni.createFrom().failure(new CallGatewayException(provider().displayName()
                + " calls cannot be transferred here yet", null));
    }

    /**
     * The conversation of a call that came through an external PBX is over (the agent or the caller ended it; not a
     * transfer): the PBX is given the lead fields the workflow maps and told to hang the call up. Nothing where the
     * provider has no external PBX.
     */
    default Uni<Void> endExternalPbxCall(ProviderConfiguration configuration, String providerCallId,
            ExternalPbxCall call) {
        return Uni.createFrom().voidItem();
    }

    /** The provider's view of the call, for reconciling calls whose reports were lost. */
    Uni<Optional<CallStatus>> fetchStatus(ProviderConfiguration configuration, String providerCallId);
}
