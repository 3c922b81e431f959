package dev.voiceagent.domain.model;

import dev.voiceagent.domain.model.ModelField.Type;
import dev.voiceagent.domain.shared.JsonText;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every model provider an organization can configure, per service, with each field's type, default,
 * range and whether it is a secret: the reference's provider schemas (src/spec/reference-openapi.json,
 * the members of BYOKPipelineAIModelConfiguration's and BYOKRealtimeAIModelConfiguration's unions),
 * transcribed as data in {@value #RESOURCE} beside this class and read once. ModelCatalogTest checks it
 * against that document field by field.
 *
 * <p>The resource holds the managed section ({@code managed}), the reference's providers in order
 * ({@code providers}) and this service's own ({@code built_in}). A provider is {@code service} (a wire
 * name), {@code id}, {@code schema} (the reference's schema name), {@code description} and {@code fields};
 * a field is {@code name}, {@code type} (text, key, number, integer, boolean, options), {@code required},
 * {@code nullable}, {@code default}, {@code minimum} or {@code exclusiveMinimum}, {@code maximum},
 * {@code enum} (the options), {@code description}, {@code examples} and {@code hints}, each left out when
 * unset. Whether a field is a secret follows from its name ({@link ModelField#SECRETS}).
 */
public final class ModelCatalog {

    /** The catalog's data, a class-path resource in this package (native images include it by name). */
    public static final String RESOURCE = "model-catalog.json";

    private static final Set<String> PROVIDER_KEYS = Set.of("service", "id", "schema", "title", "description",
            "fields");
    private static final Set<String> FIELD_KEYS = Set.of("name", "type", "required", "nullable", "default",
            "minimum", "exclusiveMinimum", "maximum", "enum", "description", "examples", "hints");
    private static final Map<String, Object> DATA = read();

    /** The managed ("dograh") section of a v2 configuration: one key and the voice it speaks with. */
    public static final ModelProvider MANAGED = provider(DATA.get("managed"));

    /**
     * Not in the reference: the providers built into this service, the simulator's language model,
     * speech-to-text and text-to-speech (for laptops, demos and tests; they call no provider and need no key).
     */
    public static final List<ModelProvider> BUILT_IN = providers(DATA.get("built_in"));

    /** The simulator language model: deterministic, calls no model (takes the edge whose condition fits best). */
    public static final ModelProvider SIMULATOR = builtIn(ModelService.LLM);

    /**
     * The simulator's speech-to-text, an oracle that knows what the simulator's callee said (it recognizes the
     * callee's own audio) and reports each line when the caller stops speaking; anything else it hears is
     * "(inaudible)".
     */
    public static final ModelProvider SIMULATOR_STT = builtIn(ModelService.STT);

    /** The simulator's text-to-speech, FreeTTS's kevin16 voice (a pure-Java synthesizer) on this service's own CPU. */
    public static final ModelProvider SIMULATOR_TTS = builtIn(ModelService.TTS);

    private static final List<ModelProvider> ALL = all(providers(DATA.get("providers")), BUILT_IN);

    private ModelCatalog() {
    }

    public static List<ModelProvider> all() {
        return ALL;
    }

    public static List<ModelProvider> of(ModelService service) {
        return ALL.stream().filter(p -> p.service() == service).toList();
    }

    public static Optional<ModelProvider> find(ModelService service, String provider) {
        return ALL.stream().filter(p -> p.service() == service && p.id().equals(provider)).findFirst();
    }

    private static Map<String, Object> read() {
        try (InputStream in = ModelCatalog.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the model catalog " + RESOURCE + " is not on the class path");
            }
            return map(JsonText.parse(new String(in.readAllBytes(), StandardCharsets.UTF_8)), RESOURCE);
        } catch (IOException e) {
            throw new UncheckedIOException("the model catalog " + RESOURCE + " could not be read", e);
        }
    }

    private static List<ModelProvider> all(List<ModelProvider> reference, List<ModelProvider> builtIn) {
        List<ModelProvider> all = new ArrayList<>(reference);
        all.addAll(builtIn);
        return List.copyOf(all);
    }

    private static ModelProvider builtIn(ModelService service) {
        return BUILT_IN.stream().filter(p -> p.service() == service).findFirst().orElseThrow(
                () -> new IllegalStateException("the model catalog has no built-in " + service.wireName()));
    }

    private static List<ModelProvider> providers(Object json) {
        return list(json, "providers").stream().map(ModelCatalog::provider).toList();
    }

    /** One provider of the resource, every key checked: a misspelt one is refused rather than ignored. */
    static ModelProvider provider(Object json) {
        Map<String, Object> p = map(json, "a provider");
        String where = "provider " + p.get("service") + " " + p.get("id");
        known(p, PROVIDER_KEYS, where);
        ModelService service = ModelService.fromWireName(text(p, "service", where)).orElseThrow(
                () -> new IllegalArgumentException(where + ": unknown service"));
        List<ModelField> fields = new ArrayList<>();
        for (Object field : list(p.get("fields"), where + " fields")) {
            fields.add(field(map(field, where + " field"), where));
        }
        return new ModelProvider(service, text(p, "id", where), text(p, "schema", where),
                optionalText(p, "title", where), optionalText(p, "description", where), fields);
    }

    private static ModelField field(Map<String, Object> f, String provider) {
        String where = provider + " field " + f.get("name");
        known(f, FIELD_KEYS, where);
        String name = text(f, "name", where);
        Type type = type(text(f, "type", where), where);
        if (f.containsKey("minimum") && f.containsKey("exclusiveMinimum")) {
            throw new IllegalArgumentException(where + ": minimum and exclusiveMinimum both given");
        }
        boolean lowerExclusive = f.containsKey("exclusiveMinimum");
        Object defaultValue = f.get("default");
        if (defaultValue != null && !(defaultValue instanceof String || defaultValue instanceof Double
                || defaultValue instanceof Boolean)) {
            throw new IllegalArgumentException(where + ": a default is a text, a number or a boolean");
        }
        return new ModelField(name, type, flag(f, "required", where), flag(f, "nullable", where), defaultValue,
                number(f, lowerExclusive ? "exclusiveMinimum" : "minimum", where), lowerExclusive,
                number(f, "maximum", where), texts(f, "enum", where), ModelField.SECRETS.contains(name),
                optionalText(f, "description", where), texts(f, "examples", where),
                f.containsKey("hints") ? map(f.get("hints"), where + " hints") : null);
    }

    private static Type type(String name, String where) {
        for (Type type : Type.values()) {
            if (type.name().toLowerCase(Locale.ROOT).equals(name)) {
                return type;
            }
        }
        throw new IllegalArgumentException(where + ": unknown type " + name);
    }

    private static void known(Map<String, Object> json, Set<String> keys, String where) {
        for (String key : json.keySet()) {
            if (!keys.contains(key)) {
                throw new IllegalArgumentException(where + ": unknown key \"" + key + "\"");
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object json, String what) {
        if (json instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new IllegalArgumentException("model catalog: " + what + " is not an object");
    }

    private static List<?> list(Object json, String what) {
        if (json instanceof List<?> list) {
            return list;
        }
        throw new IllegalArgumentException("model catalog: " + what + " is not a list");
    }

    private static String text(Map<String, Object> json, String key, String where) {
        String value = optionalText(json, key, where);
        if (value == null) {
            throw new IllegalArgumentException(where + ": " + key + " missing");
        }
        return value;
    }

    private static String optionalText(Map<String, Object> json, String key, String where) {
        Object value = json.get(key);
        if (value == null || value instanceof String) {
            return (String) value;
        }
        throw new IllegalArgumentException(where + ": " + key + " is not a text");
    }

    private static boolean flag(Map<String, Object> json, String key, String where) {
        Object value = json.get(key);
        if (value == null || value instanceof Boolean) {
            return Boolean.TRUE.equals(value);
        }
        throw new IllegalArgumentException(where + ": " + key + " is not a boolean");
    }

    private static Double number(Map<String, Object> json, String key, String where) {
        Object value = json.get(key);
        if (value == null || value instanceof Double) {
            return (Double) value;
        }
        throw new IllegalArgumentException(where + ": " + key + " is not a number");
    }

    private static List<String> texts(Map<String, Object> json, String key, String where) {
        Object value = json.get(key);
        if (value == null) {
            return null;
        }
        List<?> list = list(value, where + " " + key);
        if (!list.stream().allMatch(String.class::isInstance)) {
            throw new IllegalArgumentException(where + ": " + key + " holds something other than texts");
        }
        return list.stream().map(String.class::cast).toList();
    }
}
