package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import dev.voiceagent.application.workflow.RunPage;
import dev.voiceagent.application.workflow.RunPageQuery;
import io.smallrye.mutiny.Uni;

public interface ListCampaignRunsUseCase {

    Uni<RunPage> list(Principal principal, long campaignId, RunPageQuery query);
}
