package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface SetDefaultOutboundUseCase {

    Uni<TelephonyConfigurationDetails> setDefault(Principal principal, long configurationId);
}
