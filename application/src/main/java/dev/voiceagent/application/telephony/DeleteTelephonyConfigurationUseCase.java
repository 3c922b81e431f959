package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface DeleteTelephonyConfigurationUseCase {

    Uni<Void> delete(Principal principal, long configurationId);
}
