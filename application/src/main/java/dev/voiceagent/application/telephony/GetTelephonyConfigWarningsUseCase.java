package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface GetTelephonyConfigWarningsUseCase {

    Uni<TelephonyConfigWarnings> warnings(Principal principal);
}
