package dev.voiceagent.domain.campaign;

import dev.voiceagent.domain.webhook.WebhookEvent;
import java.util.List;
import java.util.Optional;

/**
 * A changed campaign, the log entry that explains the change and the webhook event it raises (campaign.started,
 * .paused, ...; none for a change no endpoint subscribes to), all written in the same transaction.
 */
public record CampaignTransition(Campaign campaign, CampaignLogEntry entry, Optional<WebhookEvent> event) {

    /** The transition from {@code before} to {@code after} that {@code entry} explains, with the event it raises. */
    static CampaignTransition of(Campaign before, Campaign after, CampaignLogEntry entry) {
        return new CampaignTransition(after, entry, WebhookEvent.CampaignStateChanged.of(entry.event(), entry.ts(),
                after.id(), after.name(), after.state().wireName(), before.state().wireName(), entry.message(),
                entry.details()));
    }

    public List<WebhookEvent> events() {
        return event.stream().toList();
    }
}
