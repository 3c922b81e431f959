package dev.voiceagent.application.telephony;

import dev.voiceagent.application.auth.Principal;
import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;

public interface GetPhoneNumberUseCase {

    Uni<TelephonyNumber> get(Principal principal, long configurationId, long numberId);
}
