package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Uni;
import java.util.List;

public interface ListCampaignsUseCase {

    Uni<List<CampaignView>> list(Principal principal);
}
