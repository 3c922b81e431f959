package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface GetPhoneNumberUseCase {

    Uni<PhoneNumberView> get(Principal principal, long configurationId, long numberId);
}
