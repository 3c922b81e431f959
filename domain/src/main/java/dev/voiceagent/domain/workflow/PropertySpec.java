package dev.voiceagent.domain.workflow;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/** One field of a node's data: its type, whether it is required, its default and its constraints. */
public record PropertySpec(
        String name,
        Type type,
        String displayName,
        String description,
        boolean required,
        Object defaultValue,
        Double minValue,
        Double maxValue,
        Integer minLength,
        Integer maxLength,
        String pattern,
        List<Option> options,
        List<PropertySpec> properties) {

    /** The renderer's bounded vocabulary (the reference's PropertyType). */
    public enum Type {
        STRING, NUMBER, BOOLEAN, OPTIONS, MULTI_OPTIONS, FIXED_COLLECTION, JSON, TOOL_REFS, DOCUMENT_REFS,
        RECORDING_REF, CREDENTIAL_REF, MENTION_TEXTAREA, URL;

        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** Types whose value is text. */
        public boolean textual() {
            return this == STRING || this == MENTION_TEXTAREA || this == URL || this == RECORDING_REF
                    || this == CREDENTIAL_REF;
        }
    }

    public record Option(Object value, String label) {
    }

    public PropertySpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        options = options == null ? null : List.copyOf(options);
        properties = properties == null ? null : List.copyOf(properties);
    }

    static PropertySpec of(String name, Type type, String displayName, String description) {
        return new PropertySpec(name, type, displayName, description, false, null, null, null, null, null, null, null, null);
    }

    PropertySpec mandatory() {
        return new PropertySpec(name, type, displayName, description, true, defaultValue, minValue, maxValue,
                type.textual() ? Integer.valueOf(1) : minLength, maxLength, pattern, options, properties);
    }

    PropertySpec withDefault(Object value) {
        return new PropertySpec(name, type, displayName, description, required, value, minValue, maxValue, minLength,
                maxLength, pattern, options, properties);
    }

    PropertySpec range(double min, double max) {
        return new PropertySpec(name, type, displayName, description, required, defaultValue, min, max, minLength,
                maxLength, pattern, options, properties);
    }

    PropertySpec text(Integer max, String regex) {
        return new PropertySpec(name, type, displayName, description, required, defaultValue, minValue, maxValue,
                minLength, max, regex, options, properties);
    }

    PropertySpec options(Object... values) {
        return new PropertySpec(name, type, displayName, description, required, defaultValue, minValue, maxValue,
                minLength, maxLength, pattern,
                java.util.Arrays.stream(values).map(v -> new Option(v, String.valueOf(v))).toList(), properties);
    }

    PropertySpec nested(PropertySpec... fields) {
        return new PropertySpec(name, type, displayName, description, required, defaultValue, minValue, maxValue,
                minLength, maxLength, pattern, options, List.of(fields));
    }
}
