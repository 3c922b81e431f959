package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface RemovePhoneNumberUseCase {

    Uni<Void> remove(Principal principal, long configurationId, long numberId);
}
