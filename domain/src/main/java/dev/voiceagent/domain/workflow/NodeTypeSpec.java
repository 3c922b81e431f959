package dev.voiceagent.domain.workflow;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A node type: what its data holds and how it may be connected; {@code llmHint} guides a language
 * model that builds workflows.
 */
public record NodeTypeSpec(
        String name,
        String displayName,
        String description,
        Category category,
        String icon,
        String version,
        List<PropertySpec> properties,
        GraphConstraints graphConstraints,
        List<Example> examples,
        String llmHint) {

    public enum Category {
        CALL_NODE, GLOBAL_NODE, TRIGGER, INTEGRATION;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** Instance and connection limits; null means unlimited. */
    public record GraphConstraints(Integer minIncoming, Integer maxIncoming, Integer minOutgoing, Integer maxOutgoing,
            Integer minInstances, Integer maxInstances) {
    }

    public record Example(String name, String description, Map<String, Object> data) {
    }

    public NodeTypeSpec {
        properties = List.copyOf(properties);
        examples = List.copyOf(examples);
    }

    public Optional<PropertySpec> property(String field) {
        return properties.stream().filter(p -> p.name().equals(field)).findFirst();
    }
}
