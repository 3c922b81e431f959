package dev.voiceagent.domain.campaign;

import java.util.Map;
import java.util.Objects;

/** One row of a campaign's source: the number to dial, its own time zone if given, and its variables. */
public record Contact(long organizationId, long campaignId, int rowNumber, String phoneNumber, String timezone,
        Map<String, Object> context) {

    public Contact {
        Objects.requireNonNull(phoneNumber, "phoneNumber");
        context = context == null ? Map.of() : Map.copyOf(context);
    }
}
