package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.List;

public interface ListTelephonyConfigurationsUseCase {

    Uni<List<TelephonyConfigurationView>> list(Principal principal);
}
