package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.Provider;
import io.smallrye.mutiny.Uni;
import java.util.Map;

public interface CreateTelephonyConfigurationUseCase {

    Uni<TelephonyConfigurationDetails> create(Principal principal, String name, Provider provider, Map<String, Object> fields, boolean defaultOutbound);
}
