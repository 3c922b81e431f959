package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;

public interface GetCampaignDefaultsUseCase {

    Uni<CampaignDefaults> defaults(Principal principal);
}
