package dev.voiceagent.domain.model;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The organization's model configuration, v2 (the reference's OrganizationAIModelConfigurationV2):
 * {version 2, mode dograh|byok, dograh {api_key, voice, speed, language}, byok {mode pipeline|realtime,
 * pipeline {llm, tts, stt, embeddings?}, realtime {realtime, llm, embeddings?}}}, and the user-level
 * legacy v1 ({llm, tts, stt, embeddings, realtime, is_realtime}). Documents are plain maps checked here
 * field by field; a checked document keeps only the sections its modes use, every value normalized.
 */
public final class ModelConfigurationDocument {

    public static final String MANAGED = "dograh";
    public static final String BYOK = "byok";

    /** A checked document: the normalized value, or the problems (then value is null). */
    public record Checked(Map<String, Object> value, List<SettingsProblem> problems) {

        public boolean valid() {
            return problems.isEmpty();
        }
    }

    private static final String OBJECT_EXPECTED = "Input should be a valid dictionary or object to extract fields from";

    private ModelConfigurationDocument() {
    }

    /** A v2 configuration sent by a client; locations start with {@code root} (e.g. ["body"]). */
    public static Checked checkV2(Object body, List<Object> root) {
        List<SettingsProblem> problems = new ArrayList<>();
        if (!(body instanceof Map<?, ?> map)) {
            problems.add(new SettingsProblem(root, "Input should be a valid dictionary or object to extract fields from",
                    "model_attributes_type", null));
            return new Checked(null, problems);
        }
        Object version = map.get("version");
        if (version != null && !(version instanceof Number n && n.doubleValue() == 2)) {
            problems.add(new SettingsProblem(at(root, "version"), "Input should be 2", "literal_error", version));
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("version", 2);
        Object mode = map.get("mode");
        if (!MANAGED.equals(mode) && !BYOK.equals(mode)) {
            problems.add(new SettingsProblem(at(root, "mode"), mode == null ? "Field required"
                    : "Input should be 'dograh' or 'byok'", mode == null ? "missing" : "literal_error", mode));
            return new Checked(null, problems);
        }
        out.put("mode", mode);
        // both sections are checked when given (a form switching modes sends both) and kept; mode says which is used
        Object managedSection = map.get(MANAGED);
        if (managedSection == null && MANAGED.equals(mode)) {
            problems.add(new SettingsProblem(at(root, MANAGED), "The dograh section is required when mode is dograh",
                    "missing", null));
        } else if (managedSection != null) {
            if (!(managedSection instanceof Map<?, ?> managed)) {
                problems.add(new SettingsProblem(at(root, MANAGED), OBJECT_EXPECTED, "model_attributes_type", null));
            } else {
                Map<String, Object> checked = ModelSettingsCheck.fields(ModelCatalog.MANAGED, managed, at(root, MANAGED),
                        problems);
                if (checked != null) {
                    checked.remove("provider");
                    out.put(MANAGED, checked);
                }
            }
        }
        Object byokSection = map.get(BYOK);
        if (byokSection == null && BYOK.equals(mode)) {
            problems.add(new SettingsProblem(at(root, BYOK), "The byok section is required when mode is byok",
                    "missing", null));
        } else if (byokSection != null) {
            if (!(byokSection instanceof Map<?, ?> byok)) {
                problems.add(new SettingsProblem(at(root, BYOK), OBJECT_EXPECTED, "model_attributes_type", null));
            } else {
                Map<String, Object> checked = byok(byok, at(root, BYOK), problems);
                if (checked != null) {
                    out.put(BYOK, checked);
                }
            }
        }
        return problems.isEmpty() ? new Checked(out, problems) : new Checked(null, problems);
    }

    private static Map<String, Object> byok(Map<?, ?> byok, List<Object> loc, List<SettingsProblem> problems) {
        Object mode = byok.get("mode");
        if (!"pipeline".equals(mode) && !"realtime".equals(mode)) {
            problems.add(new SettingsProblem(at(loc, "mode"), mode == null ? "Field required"
                    : "Input should be 'pipeline' or 'realtime'", mode == null ? "missing" : "literal_error", mode));
            return null;
        }
        int before = problems.size();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("mode", mode);
        for (String section : BYOK_MODES) {
            Object given = byok.get(section);
            if (given == null) {
                if (section.equals(mode)) {
                    problems.add(new SettingsProblem(at(loc, section), "The " + section + " section is required when"
                            + " mode is " + section, "missing", null));
                }
                continue;
            }
            if (!(given instanceof Map<?, ?> services)) {
                problems.add(new SettingsProblem(at(loc, section), OBJECT_EXPECTED, "model_attributes_type", null));
                continue;
            }
            List<ModelService> required = "pipeline".equals(section)
                    ? List.of(ModelService.LLM, ModelService.TTS, ModelService.STT)
                    : List.of(ModelService.REALTIME, ModelService.LLM);
            Map<String, Object> checked = new LinkedHashMap<>();
            for (ModelService service : required) {
                Object raw = services.get(service.wireName());
                if (raw == null) {
                    problems.add(new SettingsProblem(at(at(loc, section), service.wireName()), "Field required",
                            "missing", null));
                    continue;
                }
                Map<String, Object> settings = ModelSettingsCheck.check(service, raw, at(at(loc, section),
                        service.wireName()), problems);
                VoiceRuntimeProviders.problem(service, settings, at(at(loc, section), service.wireName()))
                        .ifPresent(problems::add);
                checked.put(service.wireName(), settings);
            }
            Object embeddings = services.get("embeddings");
            if (embeddings != null) {
                checked.put("embeddings", ModelSettingsCheck.check(ModelService.EMBEDDINGS, embeddings,
                        at(at(loc, section), "embeddings"), problems));
            }
            out.put(section, checked);
        }
        return problems.size() > before ? null : out;
    }

    /** The user-level legacy configuration (v1): each service present is checked; the rest is kept as given. */
    public static Checked checkV1(Map<String, Object> body, List<Object> root) {
        List<SettingsProblem> problems = new ArrayList<>();
        Map<String, Object> out = new LinkedHashMap<>();
        for (ModelService service : ModelService.values()) {
            Object raw = body.get(service.wireName());
            if (raw != null) {
                Map<String, Object> settings = ModelSettingsCheck.check(service, raw, at(root, service.wireName()),
                        problems);
                VoiceRuntimeProviders.problem(service, settings, at(root, service.wireName())).ifPresent(problems::add);
                out.put(service.wireName(), settings);
            }
        }
        Object realtime = body.get("is_realtime");
        if (realtime != null) {
            out.put("is_realtime", realtime);
        }
        return problems.isEmpty() ? new Checked(out, problems) : new Checked(null, problems);
    }

    /**
     * What a v2 configuration means per service. Managed mode uses the managed ("dograh") provider for
     * every service with the section's key, voice, speed and language.
     */
    @SuppressWarnings("unchecked")
    public static EffectiveModels effective(Map<String, Object> v2) {
        if (v2 == null) {
            return EffectiveModels.EMPTY;
        }
        if (MANAGED.equals(v2.get("mode"))) {
            Map<String, Object> managed = (Map<String, Object>) v2.get(MANAGED);
            Object key = managed.get("api_key");
            Map<String, Object> llm = managedService(ModelService.LLM, key, Map.of());
            Map<String, Object> tts = managedService(ModelService.TTS, key, Map.of("voice", managed.getOrDefault(
                    "voice", "default"), "speed", managed.getOrDefault("speed", 1.0)));
            Map<String, Object> stt = managedService(ModelService.STT, key, Map.of("language", managed.getOrDefault(
                    "language", "multi")));
            Map<String, Object> embeddings = managedService(ModelService.EMBEDDINGS, key, Map.of());
            return new EffectiveModels(llm, tts, stt, embeddings, null, false);
        }
        Map<String, Object> byok = (Map<String, Object>) v2.get(BYOK);
        if ("realtime".equals(byok.get("mode"))) {
            Map<String, Object> s = (Map<String, Object>) byok.get("realtime");
            return new EffectiveModels((Map<String, Object>) s.get("llm"), null, null,
                    (Map<String, Object>) s.get("embeddings"), (Map<String, Object>) s.get("realtime"), true);
        }
        Map<String, Object> s = (Map<String, Object>) byok.get("pipeline");
        return new EffectiveModels((Map<String, Object>) s.get("llm"), (Map<String, Object>) s.get("tts"),
                (Map<String, Object>) s.get("stt"), (Map<String, Object>) s.get("embeddings"), null, false);
    }

    private static Map<String, Object> managedService(ModelService service, Object key, Map<String, Object> extra) {
        ModelProvider provider = ModelCatalog.find(service, MANAGED).orElseThrow();
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("provider", MANAGED);
        for (ModelField field : provider.fields()) {
            if (field.defaultValue() != null) {
                out.put(field.name(), field.defaultValue());
            }
        }
        out.putAll(extra);
        out.put("api_key", key);
        return out;
    }

    /** The user-level legacy configuration (v1) as it reads. */
    @SuppressWarnings("unchecked")
    public static EffectiveModels fromV1(Map<String, Object> v1) {
        if (v1 == null) {
            return EffectiveModels.EMPTY;
        }
        return new EffectiveModels((Map<String, Object>) v1.get("llm"), (Map<String, Object>) v1.get("tts"),
                (Map<String, Object>) v1.get("stt"), (Map<String, Object>) v1.get("embeddings"),
                (Map<String, Object>) v1.get("realtime"), Boolean.TRUE.equals(v1.get("is_realtime")));
    }

    /**
     * The v2 configuration a legacy one becomes (the reference's conversion): managed when any service uses
     * the managed provider (all of them then, with its key), else bring-your-own-keys in the mode it was in.
     */
    public static Map<String, Object> fromLegacy(EffectiveModels legacy) {
        Object managedKey = null;
        for (ModelService service : ModelService.values()) {
            Map<String, Object> s = legacy.of(service);
            if (s != null && MANAGED.equals(s.get("provider")) && s.get("api_key") != null) {
                managedKey = s.get("api_key");
                break;
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("version", 2);
        if (managedKey != null) {
            Map<String, Object> managed = new LinkedHashMap<>();
            managed.put("api_key", managedKey instanceof List<?> list ? list.getFirst() : managedKey);
            Map<String, Object> tts = legacy.tts() != null && MANAGED.equals(legacy.tts().get("provider")) ? legacy.tts()
                    : Map.of();
            Map<String, Object> stt = legacy.stt() != null && MANAGED.equals(legacy.stt().get("provider")) ? legacy.stt()
                    : Map.of();
            managed.put("voice", tts.getOrDefault("voice", "default"));
            managed.put("speed", tts.getOrDefault("speed", 1.0));
            managed.put("language", stt.getOrDefault("language", "multi"));
            out.put("mode", MANAGED);
            out.put(MANAGED, managed);
            return out;
        }
        Map<String, Object> section = new LinkedHashMap<>();
        String mode;
        if (legacy.realtimeMode()) {
            if (legacy.realtime() == null || legacy.llm() == null) {
                throw new DomainRuleViolation("Realtime legacy configuration is incomplete");
            }
            mode = "realtime";
            section.put("realtime", legacy.realtime());
            section.put("llm", legacy.llm());
        } else {
            if (legacy.llm() == null || legacy.tts() == null || legacy.stt() == null) {
                throw new DomainRuleViolation("Pipeline legacy configuration is incomplete");
            }
            mode = "pipeline";
            section.put("llm", legacy.llm());
            section.put("tts", legacy.tts());
            section.put("stt", legacy.stt());
        }
        if (legacy.embeddings() != null) {
            section.put("embeddings", legacy.embeddings());
        }
        Map<String, Object> byok = new LinkedHashMap<>();
        byok.put("mode", mode);
        byok.put(mode, section);
        out.put("mode", BYOK);
        out.put(BYOK, byok);
        return out;
    }

    /**
     * A v2 document sent back with masked secrets: the managed section's key and each service's secrets
     * (byok.pipeline.*, byok.realtime.*) restored from the stored document where the provider is the same.
     */
    @SuppressWarnings("unchecked")
    public static Object restoreSecrets(Object incoming, Object stored) {
        if (!(incoming instanceof Map<?, ?> in) || !(stored instanceof Map<?, ?> old)) {
            return incoming;
        }
        Map<String, Object> out = new LinkedHashMap<>((Map<String, Object>) in);
        if (in.get(MANAGED) instanceof Map<?, ?> managed && old.get(MANAGED) instanceof Map<?, ?> previous) {
            out.put(MANAGED, ModelSecrets.restored((Map<String, Object>) managed, previous));
        }
        if (in.get(BYOK) instanceof Map<?, ?> byok && old.get(BYOK) instanceof Map<?, ?> previous) {
            Map<String, Object> sections = new LinkedHashMap<>((Map<String, Object>) byok);
            for (String mode : BYOK_MODES) {
                if (byok.get(mode) instanceof Map<?, ?> services && previous.get(mode) instanceof Map<?, ?> before) {
                    sections.put(mode, restoreServices(services, before));
                }
            }
            out.put(BYOK, sections);
        }
        return out;
    }

    /** Services by name ({llm: {...}, tts: {...}}, a byok section or a legacy document), secrets restored. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> restoreServices(Map<?, ?> incoming, Map<?, ?> stored) {
        Map<String, Object> out = new LinkedHashMap<>((Map<String, Object>) incoming);
        for (ModelService service : ModelService.values()) {
            if (incoming.get(service.wireName()) instanceof Map<?, ?> section
                    && stored.get(service.wireName()) instanceof Map<?, ?> previous) {
                out.put(service.wireName(), ModelSecrets.restored((Map<String, Object>) section, previous));
            }
        }
        return out;
    }

    private static final List<String> BYOK_MODES = List.of("pipeline", "realtime");

    private static List<Object> at(List<Object> loc, Object element) {
        return ModelSettingsCheck.append(loc, element);
    }
}
