package dev.voiceagent.application.telephony;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.domain.telephony.Trunk;
import io.smallrye.mutiny.Uni;
import java.util.List;

public interface ListTrunksUseCase {

    Uni<List<TrunkView>> list(Principal principal, long configurationId);
}
