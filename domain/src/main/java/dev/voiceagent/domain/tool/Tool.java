package dev.voiceagent.domain.tool;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.JsonTree;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Pattern;

/** A reusable tool of an organization, offered to the model by the nodes that name it (data.tool_uuids). */
public record Tool(Long id, long organizationId, String uuid, String name, String description, ToolCategory category,
        String icon, String iconColor, ToolStatus status, Map<String, Object> definition, Long createdBy,
        Instant createdAt, Instant updatedAt) {

    public static final int MAX_NAME = 255;
    public static final int MAX_DESCRIPTION = 4_000;
    private static final Pattern COLOR = Pattern.compile("#[0-9A-Fa-f]{3}([0-9A-Fa-f]{3})?");

    public Tool {
        if (name == null || name.isBlank()) {
            throw new DomainRuleViolation("name is required");
        }
        name = name.strip();
        if (name.length() > MAX_NAME) {
            throw new DomainRuleViolation("name must be at most " + MAX_NAME + " characters");
        }
        if (description != null && description.length() > MAX_DESCRIPTION) {
            throw new DomainRuleViolation("description must be at most " + MAX_DESCRIPTION + " characters");
        }
        if (icon != null && icon.length() > 50) {
            throw new DomainRuleViolation("icon must be at most 50 characters");
        }
        if (iconColor != null && !COLOR.matcher(iconColor).matches()) {
            throw new DomainRuleViolation("icon_color must be a hex color such as #3B82F6");
        }
        definition = JsonTree.asMap(JsonTree.freeze(definition));
    }

    /**
     * An HTTP tool saved without its URL yet (the reference dashboard's create dialog sends ""): kept, filled in on
     * its page; until then it is neither offered to a model nor tested.
     */
    public boolean incomplete() {
        return category == ToolCategory.HTTP_API && !(config().get("url") instanceof String url && !url.isBlank());
    }

    /** The config of the definition (empty for a calculator). */
    public Map<String, Object> config() {
        Map<String, Object> config = JsonTree.asMap(definition.get("config"));
        return config == null ? Map.of() : config;
    }

    public Tool withStatus(ToolStatus next, Instant now) {
        return new Tool(id, organizationId, uuid, name, description, category, icon, iconColor, next, definition,
                createdBy, createdAt, now);
    }

    public Tool withDefinition(Map<String, Object> next, Instant now) {
        return new Tool(id, organizationId, uuid, name, description, category, icon, iconColor, status, next,
                createdBy, createdAt, now);
    }
}
