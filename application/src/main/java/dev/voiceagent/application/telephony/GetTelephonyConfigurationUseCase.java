package dev.voiceagent.application.telephony;

import dev.voiceagent.application.auth.Principal;
import io.smallrye.mutiny.Uni;

public interface GetTelephonyConfigurationUseCase {

    Uni<TelephonyConfigurationDetails> get(Principal principal, long configurationId);
}
