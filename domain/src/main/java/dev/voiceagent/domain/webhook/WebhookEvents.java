package dev.voiceagent.domain.webhook;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.List;

/** An endpoint's subscription to the event types of {@link WebhookEvent}. */
public final class WebhookEvents {

    public static final List<String> TYPES = WebhookEvent.TYPES;

    private WebhookEvents() {
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
