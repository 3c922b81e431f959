package dev.voiceagent.application.telephony;

import dev.voiceagent.application.auth.Principal;
import io.smallrye.mutiny.Uni;

public interface SetDefaultOutboundUseCase {

    Uni<TelephonyConfigurationView> setDefault(Principal principal, long configurationId);
}
