package dev.voiceagent.domain.model;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One setting of a model provider: its type (KEY is a key or a list of keys, for rotation), whether it
 * is required or may be null, its default, its range (the lower bound possibly exclusive), its options,
 * and whether it is a secret (sealed at rest, masked on output). Examples are the values a form offers
 * (a model list, voices); hints are the reference's form hints passed through as they are
 * (allow_custom_input, model_options, multiline, docs_url).
 */
public record ModelField(String name, Type type, boolean required, boolean nullable, Object defaultValue, Double lower,
        boolean lowerExclusive, Double upper, List<String> options, boolean secret, String description,
        List<String> examples, Map<String, Object> hints) {

    /** The fields that hold credentials, whatever the provider. */
    public static final Set<String> SECRETS = Set.of("api_key", "credentials", "aws_access_key", "aws_secret_key");

    public enum Type {
        TEXT, KEY, NUMBER, INTEGER, BOOLEAN, OPTIONS
    }

    public ModelField {
        options = options == null ? null : List.copyOf(options);
        examples = examples == null ? List.of() : List.copyOf(examples);
        hints = hints == null ? Map.of() : Map.copyOf(hints);
    }
}
