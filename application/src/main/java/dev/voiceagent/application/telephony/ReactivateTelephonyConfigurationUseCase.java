package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface ReactivateTelephonyConfigurationUseCase {

    Uni<TelephonyConfigurationDetails> reactivate(Principal principal, long configurationId);
}
