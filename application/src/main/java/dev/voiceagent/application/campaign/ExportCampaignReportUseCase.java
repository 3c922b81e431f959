package dev.voiceagent.application.campaign;

import dev.voiceagent.application.shared.Principal;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import java.time.Instant;

public interface ExportCampaignReportUseCase {

    /** Fails (404) before the first line when the campaign is not the caller's; then streams CSV lines. */
    Uni<Multi<String>> export(Principal principal, long campaignId, Instant from, Instant to);
}
