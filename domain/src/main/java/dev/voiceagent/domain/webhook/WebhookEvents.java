package dev.voiceagent.domain.webhook;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The event types an endpoint may subscribe to, and the campaign log events that raise them. */
public final class WebhookEvents {

    public static final List<String> TYPES = List.of("campaign.started", "campaign.paused", "campaign.resumed",
            "campaign.circuit_open", "campaign.completed", "campaign.failed", "contact.completed", "contact.failed",
            "contact.skipped", "run.completed", "call.status");

    private static final Map<String, String> CAMPAIGN_LOG_EVENTS = Map.of("started", "campaign.started",
            "paused", "campaign.paused", "resumed", "campaign.resumed", "circuit_breaker_tripped",
            "campaign.circuit_open", "completed", "campaign.completed", "failed", "campaign.failed");

    private WebhookEvents() {
    }

    /** The webhook event a campaign log event raises, if any. */
    public static Optional<String> ofCampaignLogEvent(String logEvent) {
        return Optional.ofNullable(CAMPAIGN_LOG_EVENTS.get(logEvent));
    }

    /** An endpoint's subscription: known types, no repeats; empty means every type. */
    public static List<String> validate(List<String> types) {
        if (types == null) {
            return List.of();
        }
        for (String type : types) {
            if (!TYPES.contains(type)) {
                throw new DomainRuleViolation("Unknown event type '" + type + "'; known: " + String.join(", ", TYPES));
            }
        }
        return types.stream().distinct().toList();
    }
}
