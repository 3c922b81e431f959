package dev.voiceagent.domain.model;

import dev.voiceagent.domain.workflow.SecretMasking;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Secrets of a model configuration (api_key, credentials, AWS keys; a key may be a list of keys): masked
 * on output (all but the last 4 characters), and a masked value sent back restored from what is stored.
 */
public final class ModelSecrets {

    /** What a masked value contains: a real key never has it (and the reference uses the same rule). */
    static final String MASK_MARKER = "***";

    private ModelSecrets() {
    }

    /** A deep copy with every secret masked. */
    public static Object masked(Object tree) {
        if (tree instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                String key = String.valueOf(e.getKey());
                out.put(key, ModelField.SECRETS.contains(key) ? maskValue(e.getValue()) : masked(e.getValue()));
            }
            return out;
        }
        if (tree instanceof List<?> list) {
            return list.stream().map(ModelSecrets::masked).toList();
        }
        return tree;
    }

    private static Object maskValue(Object value) {
        if (value instanceof String s) {
            return s.isEmpty() ? s : SecretMasking.mask(s);
        }
        if (value instanceof List<?> list) {
            return list.stream().map(v -> v instanceof String s ? SecretMasking.mask(s) : v).toList();
        }
        return value;
    }

    /** Whether any secret of the tree still holds a masked placeholder. */
    public static boolean containsMasked(Object tree) {
        if (tree instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (ModelField.SECRETS.contains(String.valueOf(e.getKey())) && isMasked(e.getValue())
                        || containsMasked(e.getValue())) {
                    return true;
                }
            }
        } else if (tree instanceof List<?> list) {
            return list.stream().anyMatch(ModelSecrets::containsMasked);
        }
        return false;
    }

    /** Where a masked placeholder is still in the tree (locations under {@code root}). */
    public static List<List<Object>> maskedLocations(Object tree, List<Object> root) {
        List<List<Object>> out = new ArrayList<>();
        if (tree instanceof Map<?, ?> map) {
            for (Map.Entry<?, ?> e : map.entrySet()) {
                List<Object> at = new ArrayList<>(root);
                at.add(String.valueOf(e.getKey()));
                if (ModelField.SECRETS.contains(String.valueOf(e.getKey())) && isMasked(e.getValue())) {
                    out.add(at);
                } else {
                    out.addAll(maskedLocations(e.getValue(), at));
                }
            }
        } else if (tree instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                List<Object> at = new ArrayList<>(root);
                at.add(i);
                out.addAll(maskedLocations(list.get(i), at));
            }
        }
        return out;
    }

    private static boolean isMasked(Object value) {
        if (value instanceof String s) {
            return s.contains(MASK_MARKER);
        }
        return value instanceof List<?> list && list.stream().anyMatch(v -> v instanceof String s && s.contains(MASK_MARKER));
    }

    /**
     * One service's settings as sent, with each masked secret replaced by the stored secret it masks
     * (keys of a list matched one by one), and a secret left out taken from the store, when the service
     * keeps its provider. Anything else is the caller's new value.
     */
    public static Map<String, Object> restored(Map<String, Object> incoming, Map<?, ?> stored) {
        if (stored == null || incoming.get("provider") != null && stored.get("provider") != null
                && !incoming.get("provider").equals(stored.get("provider"))) {
            return incoming;
        }
        Map<String, Object> out = new LinkedHashMap<>(incoming);
        if (incoming.get(ModelSettingsCheck.FALLBACKS) instanceof List<?> given
                && stored.get(ModelSettingsCheck.FALLBACKS) instanceof List<?> before) {
            out.put(ModelSettingsCheck.FALLBACKS, fallbacks(given, before));
        }
        for (String secret : ModelField.SECRETS) {
            Object existing = stored.get(secret);
            if (existing == null) {
                continue;
            }
            Object given = out.get(secret);
            if (given == null) {
                out.put(secret, existing);
            } else if (isMasked(given)) {
                out.put(secret, resolve(given, existing));
            }
        }
        return out;
    }

    /** Fallbacks as sent, each one's secrets restored from the stored fallback at its place (same provider). */
    @SuppressWarnings("unchecked")
    private static List<Object> fallbacks(List<?> given, List<?> before) {
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < given.size(); i++) {
            out.add(given.get(i) instanceof Map<?, ?> entry && i < before.size() && before.get(i) instanceof Map<?, ?> old
                    ? restored((Map<String, Object>) entry, old) : given.get(i));
        }
        return out;
    }

    private static Object resolve(Object incoming, Object existing) {
        if (incoming instanceof String in && existing instanceof String real) {
            return SecretMasking.mask(real).equals(in) ? real : in;
        }
        List<?> reals = existing instanceof List<?> l ? l : List.of(existing);
        List<?> ins = incoming instanceof List<?> l ? l : List.of(incoming);
        List<Object> out = new ArrayList<>();
        Set<Integer> used = new HashSet<>();
        for (Object key : ins) {
            Object chosen = key;
            for (int i = 0; i < reals.size(); i++) {
                if (!used.contains(i) && reals.get(i) instanceof String real && SecretMasking.mask(real).equals(key)) {
                    chosen = real;
                    used.add(i);
                    break;
                }
            }
            out.add(chosen);
        }
        return incoming instanceof List<?> ? out : out.getFirst();
    }
}
