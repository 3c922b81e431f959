package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.Trunk;
import io.smallrye.mutiny.Uni;
import java.util.Map;

/** Null fields stay as they are. */
public interface ChangeTrunkUseCase {

    Uni<TrunkView> change(Principal principal, long configurationId, long trunkId, String name, Boolean enabled,
            Map<String, Object> settings);
}
