package dev.voiceagent.domain.telephony;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * A number (or SIP address, extension) that calls are placed from or received on. The normalized
 * address is unique in the organization; a configuration has at most one default caller.
 */
public record TelephonyNumber(
        Long id,
        long organizationId,
        long configurationId,
        String address,
        String normalized,
        String countryCode,
        String label,
        Long inboundWorkflowId,
        Long trunkId,
        boolean active,
        boolean defaultCaller,
        Map<String, Object> extraMetadata,
        Instant createdAt,
        Instant updatedAt) {

    public TelephonyNumber {
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(normalized, "normalized");
        Objects.requireNonNull(createdAt, "createdAt");
        if (label != null && label.length() > 64) {
            throw new DomainRuleViolation("label must be at most 64 characters");
        }
        extraMetadata = extraMetadata == null ? Map.of() : Map.copyOf(extraMetadata);
    }

    /** The reference's values: pstn for E.164 numbers, sip_uri for SIP URIs, sip_extension for extensions and dial strings. */
    public String addressType() {
        if (normalized.startsWith("sip:") || normalized.startsWith("sips:")) {
            return "sip_uri";
        }
        return normalized.startsWith("+") ? "pstn" : "sip_extension";
    }
}
