package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface SetDefaultCallerUseCase {

    Uni<PhoneNumberView> setDefaultCaller(Principal principal, long configurationId, long numberId);
}
