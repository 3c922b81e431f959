package dev.voiceagent.domain.telephony;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/** A SIP trunk of a trunk-capable configuration (Cloudonix, Asterisk). */
public record Trunk(Long id, long organizationId, long configurationId, String name, boolean enabled,
        Map<String, Object> settings, Instant createdAt, Instant updatedAt) {

    public Trunk {
        Objects.requireNonNull(createdAt, "createdAt");
        String stripped = name == null ? "" : name.strip();
        if (stripped.isEmpty() || stripped.length() > 64) {
            throw new DomainRuleViolation("Trunk name must be between 1 and 64 characters");
        }
        name = stripped;
        settings = settings == null ? Map.of() : Map.copyOf(settings);
    }

    /** Only providers that route through trunks have them. */
    public static void checkProvider(Provider provider) {
        if (!provider.supportsTrunks()) {
            throw new DomainRuleViolation(provider.displayName() + " configurations have no trunks");
        }
    }
}
