package dev.voiceagent.application.telephony;

import dev.voiceagent.application.auth.Principal;
import io.smallrye.mutiny.Uni;

public interface GetTelephonyConfigWarningsUseCase {

    Uni<TelephonyConfigWarnings> warnings(Principal principal);
}
