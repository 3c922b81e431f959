package dev.voiceagent.domain.embed;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Pattern;

/** Rules of the sessions a page opens with an embed token. */
public final class EmbedSessions {

    public static final String PREFIX = "emb_session_";
    public static final Duration LIFETIME = Duration.ofHours(1);
    /** User messages one embedded chat takes. */
    public static final int MAX_CHAT_TURNS = 50;
    private static final int MAX_CONTEXT_ENTRIES = 50;
    private static final int MAX_CONTEXT_TEXT = 1000;
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9_]{0,63}");

    private EmbedSessions() {
    }

    /**
     * What a host page may put in a session's context: at most 50 entries named like variables, each a short
     * text, a number or a boolean; anything else is left out (a page is untrusted).
     */
    public static Map<String, Object> sanitizedContext(Map<String, Object> raw) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (raw == null) {
            return out;
        }
        for (Map.Entry<String, Object> e : raw.entrySet()) {
            if (out.size() >= MAX_CONTEXT_ENTRIES || e.getKey() == null || !NAME.matcher(e.getKey()).matches()) {
                continue;
            }
            Object v = e.getValue();
            if (v instanceof String s && s.length() <= MAX_CONTEXT_TEXT && s.indexOf('\u0000') < 0) {
                out.put(e.getKey(), s);
            } else if (v instanceof Number || v instanceof Boolean) {
                out.put(e.getKey(), v);
            }
        }
        return out;
    }
}
