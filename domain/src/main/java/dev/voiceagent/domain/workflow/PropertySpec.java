package dev.voiceagent.domain.workflow;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One field of a node's data: its type, whether it is required, its default and its constraints;
 * for the editor a placeholder, the editor to use for long text and when the field is shown
 * ({@code showWhen}: field -> values, all of which must match); for language models a hint.
 */
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
        List<PropertySpec> properties,
        String llmHint,
        String placeholder,
        String editor,
        Map<String, List<Object>> showWhen) {

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

    public record Option(Object value, String label, String description) {
    }

    public PropertySpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(type, "type");
        options = options == null ? null : List.copyOf(options);
        properties = properties == null ? null : List.copyOf(properties);
        showWhen = showWhen == null ? null : Map.copyOf(showWhen);
    }

    static PropertySpec of(String name, Type type, String displayName, String description) {
        return new PropertySpec(name, type, displayName, description, false, null, null, null, null, null, null, null,
                null, null, null, null, null);
    }

    PropertySpec mandatory() {
        return new PropertySpec(name, type, displayName, description, true, defaultValue, minValue, maxValue,
                type.textual() ? Integer.valueOf(1) : minLength, maxLength, pattern, options, properties, llmHint,
                placeholder, editor, showWhen);
    }

    PropertySpec withDefault(Object value) {
        return new PropertySpec(name, type, displayName, description, required, value, minValue, maxValue, minLength,
                maxLength, pattern, options, properties, llmHint, placeholder, editor, showWhen);
    }

    PropertySpec range(double min, double max) {
        return new PropertySpec(name, type, displayName, description, required, defaultValue, min, max, minLength,
                maxLength, pattern, options, properties, llmHint, placeholder, editor, showWhen);
    }

    PropertySpec text(Integer max, String regex) {
        return new PropertySpec(name, type, displayName, description, required, defaultValue, minValue, maxValue,
                minLength, max, regex, options, properties, llmHint, placeholder, editor, showWhen);
    }

    PropertySpec options(Object... values) {
        return new PropertySpec(name, type, displayName, description, required, defaultValue, minValue, maxValue,
                minLength, maxLength, pattern,
                Arrays.stream(values).map(v -> new Option(v, String.valueOf(v), null)).toList(), properties,
                llmHint, placeholder, editor, showWhen);
    }

    PropertySpec nested(PropertySpec... fields) {
        return new PropertySpec(name, type, displayName, description, required, defaultValue, minValue, maxValue,
                minLength, maxLength, pattern, options, List.of(fields), llmHint, placeholder, editor, showWhen);
    }

    /** Guidance for a language model building a workflow (not shown in the editor). */
    PropertySpec hint(String text) {
        return new PropertySpec(name, type, displayName, description, required, defaultValue, minValue, maxValue,
                minLength, maxLength, pattern, options, properties, text, placeholder, editor, showWhen);
    }

    PropertySpec placeholder(String text) {
        return new PropertySpec(name, type, displayName, description, required, defaultValue, minValue, maxValue,
                minLength, maxLength, pattern, options, properties, llmHint, text, editor, showWhen);
    }

    /** Long text: edited in a text area rather than a line. */
    PropertySpec textarea() {
        return new PropertySpec(name, type, displayName, description, required, defaultValue, minValue, maxValue,
                minLength, maxLength, pattern, options, properties, llmHint, placeholder, "textarea", showWhen);
    }

    /** Shown only while {@code field} holds one of {@code values}. */
    PropertySpec shownWhen(String field, Object... values) {
        return new PropertySpec(name, type, displayName, description, required, defaultValue, minValue, maxValue,
                minLength, maxLength, pattern, options, properties, llmHint, placeholder, editor,
                Map.of(field, List.of(values)));
    }
}
