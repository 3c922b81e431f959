package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.Trunk;
import io.smallrye.mutiny.Uni;
import java.util.Map;

public interface AddTrunkUseCase {

    Uni<TrunkView> add(Principal principal, long configurationId, String name, boolean enabled, Map<String, Object> settings);
}
