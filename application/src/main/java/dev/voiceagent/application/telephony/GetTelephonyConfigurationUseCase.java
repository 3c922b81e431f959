package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface GetTelephonyConfigurationUseCase {

    Uni<TelephonyConfigurationDetails> get(Principal principal, long configurationId);
}
