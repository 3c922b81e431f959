package dev.voiceagent.domain.model;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks one service's settings against its provider's fields, as the reference's discriminated union
 * does: the provider tag first, then every field's type, range and options; missing required fields.
 * The result is normalized: provider first, every field with its default, unknown keys dropped.
 *
 * <p>Beyond the reference, a language model, a speech-to-text or a text-to-speech may name {@code fallbacks}: an
 * ordered list of at most {@value #MAX_FALLBACKS} other providers' settings, each checked as the service's own, that a
 * call switches to, in turn, when the one before keeps failing. They are kept with the service's settings (sealed,
 * masked and restored as its own secrets are); a client that does not know them never sends them.
 */
public final class ModelSettingsCheck {

    static final int MAX_TEXT = 20_000;
    static final int MAX_KEY = 4_096;
    static final int MAX_KEYS = 20;
    /** How many fallback providers one service may name. */
    public static final int MAX_FALLBACKS = 3;
    public static final String FALLBACKS = "fallbacks";
    /** The services a call can switch providers of: the language model, the ear and the voice. */
    static final Set<ModelService> WITH_FALLBACKS = EnumSet.of(ModelService.LLM, ModelService.STT, ModelService.TTS);

    private ModelSettingsCheck() {
    }

    /** The settings normalized, or null with the problems added to {@code problems}. */
    public static Map<String, Object> check(ModelService service, Object raw, List<Object> loc,
            List<SettingsProblem> problems) {
        if (!(raw instanceof Map<?, ?> map)) {
            problems.add(new SettingsProblem(loc, "Input should be a valid dictionary or object to extract fields from",
                    "model_attributes_type", null));
            return null;
        }
        Object tag = map.get("provider");
        List<ModelProvider> candidates = ModelCatalog.of(service);
        if (!(tag instanceof String provider)) {
            problems.add(new SettingsProblem(append(loc, "provider"), "Unable to extract tag using discriminator"
                    + " 'provider': one of " + names(candidates), "union_tag_not_found", null));
            return null;
        }
        var found = ModelCatalog.find(service, provider);
        if (found.isEmpty()) {
            problems.add(new SettingsProblem(append(loc, "provider"), "Input tag '" + provider + "' found using"
                    + " 'provider' does not match any of the expected tags: " + names(candidates), "union_tag_invalid",
                    provider));
            return null;
        }
        Map<String, Object> out = fields(found.get(), map, loc, problems);
        Object fallbacks = map.get(FALLBACKS);
        if (fallbacks != null) {
            List<Map<String, Object>> checked = fallbacks(service, fallbacks, append(loc, FALLBACKS), problems);
            if (out != null && checked != null && !checked.isEmpty()) {
                out.put(FALLBACKS, checked);
            }
        }
        return out;
    }

    /** A service's fallbacks, each checked as the service's own settings (and usable on a call); null if refused. */
    private static List<Map<String, Object>> fallbacks(ModelService service, Object raw, List<Object> loc,
            List<SettingsProblem> problems) {
        if (!WITH_FALLBACKS.contains(service)) {
            problems.add(new SettingsProblem(loc, "Fallbacks are offered for llm, stt and tts only", "extra_forbidden",
                    null));
            return null;
        }
        if (!(raw instanceof List<?> list)) {
            problems.add(new SettingsProblem(loc, "Input should be a valid list", "list_type", null));
            return null;
        }
        if (list.size() > MAX_FALLBACKS) {
            problems.add(new SettingsProblem(loc, "List should have at most " + MAX_FALLBACKS + " items after"
                    + " validation, not " + list.size(), "too_long", null));
            return null;
        }
        int before = problems.size();
        List<Map<String, Object>> out = new ArrayList<>();
        for (int i = 0; i < list.size(); i++) {
            List<Object> at = append(loc, i);
            if (list.get(i) instanceof Map<?, ?> entry && entry.containsKey(FALLBACKS)) {
                problems.add(new SettingsProblem(append(at, FALLBACKS), "A fallback has no fallbacks of its own",
                        "extra_forbidden", null));
                continue;
            }
            Map<String, Object> checked = check(service, list.get(i), at, problems);
            VoiceRuntimeProviders.problem(service, checked, at).ifPresent(problems::add);
            if (checked != null) {
                out.add(checked);
            }
        }
        return problems.size() == before ? out : null;
    }

    /** Checks {@code map} against the fields of {@code provider}; provider first in the result. */
    static Map<String, Object> fields(ModelProvider provider, Map<?, ?> map, List<Object> loc,
            List<SettingsProblem> problems) {
        int before = problems.size();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("provider", provider.id());
        for (ModelField field : provider.fields()) {
            List<Object> at = append(loc, field.name());
            boolean present = map.containsKey(field.name());
            Object value = map.get(field.name());
            if (!present || value == null && !field.nullable()) {
                if (present && !field.required()) {
                    problems.add(new SettingsProblem(at, expected(field), type(field), null));
                } else if (field.required()) {
                    problems.add(new SettingsProblem(at, "Field required", "missing", null));
                } else if (field.defaultValue() != null) {
                    out.put(field.name(), field.defaultValue());
                }
                continue;
            }
            if (value == null) {
                continue; // nullable and null: left out, as the reference stores it
            }
            Object checked = value(field, value, at, problems);
            if (checked != null) {
                out.put(field.name(), checked);
            }
        }
        return problems.size() == before ? out : null;
    }

    private static Object value(ModelField field, Object value, List<Object> at, List<SettingsProblem> problems) {
        switch (field.type()) {
            case TEXT, OPTIONS -> {
                if (!(value instanceof String s)) {
                    problems.add(new SettingsProblem(at, "Input should be a valid string", "string_type", null));
                    return null;
                }
                if (s.length() > MAX_TEXT) {
                    problems.add(new SettingsProblem(at, "String should have at most " + MAX_TEXT + " characters",
                            "string_too_long", null));
                    return null;
                }
                if (field.options() != null && !field.options().contains(s)) {
                    problems.add(new SettingsProblem(at, "Input should be " + field.options().stream()
                            .map(o -> "'" + o + "'").collect(Collectors.joining(", ")), "enum", s));
                    return null;
                }
                if (field.required() && field.secret() && s.isBlank()) {
                    problems.add(new SettingsProblem(at, field.name() + " is required", "missing", null));
                    return null;
                }
                return s;
            }
            case KEY -> {
                return key(field, value, at, problems);
            }
            case NUMBER, INTEGER -> {
                if (!(value instanceof Number n) || field.type() == ModelField.Type.INTEGER
                        && n.doubleValue() != Math.rint(n.doubleValue())) {
                    problems.add(new SettingsProblem(at, field.type() == ModelField.Type.INTEGER
                            ? "Input should be a valid integer" : "Input should be a valid number",
                            field.type() == ModelField.Type.INTEGER ? "int_type" : "float_type", null));
                    return null;
                }
                double d = n.doubleValue();
                if (field.lower() != null && (field.lowerExclusive() ? d <= field.lower() : d < field.lower())) {
                    problems.add(new SettingsProblem(at, "Input should be greater than " + (field.lowerExclusive() ? ""
                            : "or equal to ") + plain(field.lower()), field.lowerExclusive() ? "greater_than"
                            : "greater_than_equal", n));
                    return null;
                }
                if (field.upper() != null && d > field.upper()) {
                    problems.add(new SettingsProblem(at, "Input should be less than or equal to " + plain(field.upper()),
                            "less_than_equal", n));
                    return null;
                }
                return field.type() == ModelField.Type.INTEGER ? (Object) n.longValue() : (Object) d;
            }
            case BOOLEAN -> {
                if (!(value instanceof Boolean)) {
                    problems.add(new SettingsProblem(at, "Input should be a valid boolean", "bool_type", null));
                    return null;
                }
                return value;
            }
            default -> throw new IllegalStateException(field.type().name());
        }
    }

    /** A key, or a list of keys (several keys of one account, used in turn). */
    private static Object key(ModelField field, Object value, List<Object> at, List<SettingsProblem> problems) {
        List<?> keys = value instanceof List<?> list ? list : List.of(value);
        if (keys.isEmpty() || keys.size() > MAX_KEYS) {
            problems.add(new SettingsProblem(at, "Give 1 to " + MAX_KEYS + " keys", "list_length", null));
            return null;
        }
        for (int i = 0; i < keys.size(); i++) {
            List<Object> where = value instanceof List<?> ? append(at, i) : at;
            if (!(keys.get(i) instanceof String k)) {
                problems.add(new SettingsProblem(where, "Input should be a valid string", "string_type", null));
                return null;
            }
            if (k.isBlank() && field.required()) {
                problems.add(new SettingsProblem(where, field.name() + " is required", "missing", null));
                return null;
            }
            if (k.length() > MAX_KEY) {
                problems.add(new SettingsProblem(where, "A key has at most " + MAX_KEY + " characters", "string_too_long",
                        null));
                return null;
            }
        }
        return value instanceof List<?> ? List.copyOf(keys) : value;
    }

    private static String expected(ModelField field) {
        return switch (field.type()) {
            case TEXT, OPTIONS, KEY -> "Input should be a valid string";
            case NUMBER -> "Input should be a valid number";
            case INTEGER -> "Input should be a valid integer";
            case BOOLEAN -> "Input should be a valid boolean";
        };
    }

    private static String type(ModelField field) {
        return switch (field.type()) {
            case TEXT, OPTIONS, KEY -> "string_type";
            case NUMBER -> "float_type";
            case INTEGER -> "int_type";
            case BOOLEAN -> "bool_type";
        };
    }

    private static String plain(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    private static String names(List<ModelProvider> providers) {
        return providers.stream().map(p -> "'" + p.id() + "'").collect(Collectors.joining(", "));
    }

    static List<Object> append(List<Object> loc, Object element) {
        List<Object> out = new ArrayList<>(loc);
        out.add(element);
        return out;
    }
}
