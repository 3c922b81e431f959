package dev.voiceagent.domain.embed;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.JsonTree;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A workflow's website embed: a public token (emb_...) a page puts in its script tag, the domains whose pages
 * may use it, the widget's settings (voice or chat, texts, colours), how many sessions it may open and when it
 * expires. One per workflow; saving again updates it and makes it active.
 */
public record EmbedToken(Long id, long organizationId, long workflowId, String token, List<String> allowedDomains,
        Map<String, Object> settings, boolean active, int usageCount, Integer usageLimit, Instant expiresAt,
        long createdBy, Instant createdAt) {

    public static final String PREFIX = "emb_";
    public static final int MAX_DOMAINS = 100;
    public static final int MAX_DOMAIN_LENGTH = 255;
    public static final int DEFAULT_DAYS = 30;
    public static final int MAX_DAYS = 3650;

    public EmbedToken {
        Objects.requireNonNull(token, "token");
        Objects.requireNonNull(createdAt, "createdAt");
        allowedDomains = allowedDomains == null ? List.of() : allowedDomains.stream().map(String::strip)
                .filter(d -> !d.isEmpty()).toList();
        if (allowedDomains.size() > MAX_DOMAINS) {
            throw new DomainRuleViolation("allowed_domains holds at most " + MAX_DOMAINS + " entries");
        }
        if (allowedDomains.stream().anyMatch(d -> d.length() > MAX_DOMAIN_LENGTH)) {
            throw new DomainRuleViolation("an allowed domain is at most " + MAX_DOMAIN_LENGTH + " characters");
        }
        settings = settings == null ? Map.of() : JsonTree.asMap(JsonTree.freeze(settings));
        if (usageLimit != null && usageLimit < 1) {
            throw new DomainRuleViolation("usage_limit must be at least 1 (or null for no limit)");
        }
    }

    /** The token a workflow gets the first time, or its current one updated and reactivated. */
    public static EmbedToken save(EmbedToken current, long organizationId, long workflowId, String newToken,
            List<String> allowedDomains, Map<String, Object> settings, Integer usageLimit, Integer expiresInDays,
            long userId, Instant now) {
        int days = expiresInDays == null ? DEFAULT_DAYS : expiresInDays;
        if (days < 1 || days > MAX_DAYS) {
            throw new DomainRuleViolation("expires_in_days must be between 1 and " + MAX_DAYS);
        }
        Instant expires = now.plus(Duration.ofDays(days));
        if (current == null) {
            return new EmbedToken(null, organizationId, workflowId, newToken, allowedDomains, settings, true, 0,
                    usageLimit, expires, userId, now);
        }
        return new EmbedToken(current.id, organizationId, workflowId, current.token, allowedDomains,
                settings == null ? current.settings : settings, true, current.usageCount, usageLimit, expires,
                current.createdBy, current.createdAt);
    }

    public boolean expired(Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    /** "chat" when the settings say so, else "voice". */
    public String widgetType() {
        return "chat".equals(settings.get("widgetType")) ? "chat" : "voice";
    }
}
