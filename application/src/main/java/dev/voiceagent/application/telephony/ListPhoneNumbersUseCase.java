package dev.voiceagent.application.telephony;

import dev.voiceagent.application.auth.Principal;
import dev.voiceagent.domain.telephony.TelephonyNumber;
import io.smallrye.mutiny.Uni;
import java.util.List;

public interface ListPhoneNumbersUseCase {

    Uni<List<TelephonyNumber>> list(Principal principal, long configurationId);
}
