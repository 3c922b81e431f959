package dev.voiceagent.application.call;

import dev.voiceagent.domain.telephony.Provider;
import io.smallrye.mutiny.Uni;
import java.util.Optional;

/** The run of a call the provider names by its id (later events of an inbound call); empty when unknown. */
public interface FindCallRunUseCase {

    Uni<Optional<Long>> runOfCall(Provider provider, String providerCallId);
}
