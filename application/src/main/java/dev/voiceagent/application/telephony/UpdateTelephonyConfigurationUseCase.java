package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.Provider;
import io.smallrye.mutiny.Uni;
import java.util.Map;

/** New name and/or credentials (provider null: unchanged); masked secrets sent back keep the stored ones. */
public interface UpdateTelephonyConfigurationUseCase {

    Uni<TelephonyConfigurationDetails> update(Principal principal, long configurationId, String name, Provider provider, Map<String, Object> fields);
}
