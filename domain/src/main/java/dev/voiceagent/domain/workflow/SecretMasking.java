package dev.voiceagent.domain.workflow;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Secret-looking string fields (API keys, passwords, tokens, secrets) are shown with all but their
 * last 4 characters replaced by '*'. A masked value sent back means "keep what is stored".
 */
public final class SecretMasking {

    private static final int VISIBLE = 4;

    private SecretMasking() {
    }

    public static boolean isSecretKey(String key) {
        String k = key.toLowerCase(Locale.ROOT);
        return k.endsWith("api_key") || k.endsWith("apikey") || k.contains("password") || k.contains("secret")
                || k.equals("token") || k.endsWith("_token") || k.endsWith("auth_token") || k.endsWith("access_key");
    }

    public static String mask(String value) {
        if (value.length() <= VISIBLE) {
            return "*".repeat(value.length());
        }
        return "*".repeat(value.length() - VISIBLE) + value.substring(value.length() - VISIBLE);
    }

    /** A copy of the tree with every secret-looking string masked. */
    public static Object masked(Object tree) {
        return walk(tree, null, true);
    }

    /**
     * The incoming tree with masked secrets replaced by the stored values at the same place. A
     * value that is not exactly the mask of the stored one is a new secret and is kept.
     */
    public static Object restore(Object incoming, Object stored) {
        return walk(incoming, stored, false);
    }

    private static Object walk(Object value, Object stored, boolean masking) {
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> storedMap = JsonTree.asMap(stored);
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> {
                String key = String.valueOf(k);
                Object before = storedMap == null ? null : storedMap.get(key);
                if (v instanceof String s && isSecretKey(key)) {
                    if (masking) {
                        out.put(key, s.isEmpty() ? s : mask(s));
                    } else {
                        out.put(key, before instanceof String old && !s.isEmpty() && mask(old).equals(s) ? old : s);
                    }
                } else {
                    out.put(key, walk(v, before, masking));
                }
            });
            return out;
        }
        if (value instanceof List<?> list) {
            List<?> storedList = JsonTree.asList(stored);
            List<Object> out = new ArrayList<>(list.size());
            for (int i = 0; i < list.size(); i++) {
                out.add(walk(list.get(i), storedList != null && i < storedList.size() ? storedList.get(i) : null, masking));
            }
            return out;
        }
        return value;
    }
}
