package dev.voiceagent.domain.workflow;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.TextStyle;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {{name}} references a definition makes in its prompts, greetings and transition speech: the
 * values every call (and every campaign CSV row) must supply. Dotted paths ({{a.b}}), filtered or
 * defaulted references ({{x | default}}) and the system names are not required.
 */
public final class TemplateVariables {

    public static final Set<String> SYSTEM_NAMES = Set.of("campaign_id", "provider", "source_uuid");
    private static final Pattern REFERENCE = Pattern.compile("\\{\\{\\s*([^{}]*?)\\s*}}");
    private static final Set<String> PROMPT_NODES = Set.of(NodeTypes.START_CALL, NodeTypes.AGENT_NODE,
            NodeTypes.END_CALL, NodeTypes.GLOBAL_NODE);

    private TemplateVariables() {
    }

    /** Sorted, so the result is stable. */
    public static Set<String> requiredBy(WorkflowDefinition definition) {
        Set<String> names = new TreeSet<>();
        for (WorkflowDefinition.Node node : definition.nodes()) {
            if (node.data() == null || !PROMPT_NODES.contains(node.type())) {
                continue;
            }
            collect(node.data().get("prompt"), names);
            if (NodeTypes.START_CALL.equals(node.type())) {
                collect(node.data().get("greeting"), names);
            }
        }
        for (WorkflowDefinition.Edge edge : definition.edges()) {
            if (edge.data() != null) {
                collect(edge.data().get("transition_speech"), names);
            }
        }
        return names;
    }

    /** {{path}}, {{path | default}} or {{path | fallback:default}} (the reference's template syntax). */
    private static final Pattern SPOKEN = Pattern.compile(
            "\\{\\{\\s*([^{}|]+?)\\s*(?:\\|\\s*([^{}:]+?)\\s*(?::\\s*([^{}]*?)\\s*)?)?}}");

    /**
     * What a call says and the model is told, as the reference renders it: {{name}} and dotted paths
     * ({{initial_context.page_url}}, {{gathered_context.city}}, {{customer.address.city}}) from the values, a
     * {{name | default}} or {{name | fallback:default}} where the value is missing or empty, and nothing where there
     * is neither: a caller never hears braces.
     */
    public static String speak(String text, Map<String, ?> values) {
        return speak(text, values, Instant.now());
    }

    /**
     * As {@link #speak(String, Map)} at {@code now}, which the reference's built-ins say where no value is given:
     * {{current_time}} ("2026-11-29 14:05:09 UTC"), {{current_time_Europe/Paris}} in that time zone, {{current_weekday}}
     * ("Sunday", in the zone of a current_time_ of the same text, else UTC) and {{current_weekday_Asia/Tokyo}}.
     */
    public static String speak(String text, Map<String, ?> values, Instant now) {
        if (text == null || !text.contains("{{")) {
            return text;
        }
        Matcher zoned = ZONED_TIME.matcher(text);
        ZoneId textZone = zoned.find() ? zone(zoned.group(1)) : null;
        Matcher m = SPOKEN.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String path = m.group(1).strip();
            Object value = lookup(values, path);
            if (value == null) {
                value = builtIn(path, now, textZone);
            }
            for (String scope : List.of("initial_context.", "gathered_context.")) {
                if (value == null && path.startsWith(scope)) {
                    value = lookup(values, path.substring(scope.length()));
                }
            }
            String filter = m.group(2) == null ? null : m.group(2).strip();
            if (filter != null && (value == null || "".equals(value))) {
                value = !"fallback".equals(filter) ? filter
                        : m.group(3) != null ? m.group(3).strip() : title(path);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? "" : String.valueOf(value)));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static final Pattern ZONED_TIME = Pattern.compile("\\{\\{\\s*current_time_([^|\\s}]+)");
    private static final ZoneId UTC = ZoneId.of("UTC");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss z", Locale.ENGLISH);

    /** The reference's built-in variables, or null for any other name (an unknown time zone says nothing). */
    private static String builtIn(String path, Instant now, ZoneId textZone) {
        if (path.equals("current_time")) {
            return TIME.format(now.atZone(textZone == null ? UTC : textZone));
        }
        if (path.equals("current_weekday")) {
            return weekday(now.atZone(textZone == null ? UTC : textZone));
        }
        for (String prefix : List.of("current_time_", "current_weekday_")) {
            if (path.startsWith(prefix)) {
                ZoneId zone = zone(path.substring(prefix.length()));
                return zone == null ? null : prefix.equals("current_time_") ? TIME.format(now.atZone(zone))
                        : weekday(now.atZone(zone));
            }
        }
        return null;
    }

    private static String weekday(ZonedDateTime at) {
        return at.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH);
    }

    private static ZoneId zone(String id) {
        try {
            return ZoneId.of(id.strip());
        } catch (DateTimeException e) {
            return null;
        }
    }

    /** A value by its dotted path through nested maps; null where any step is missing. */
    private static Object lookup(Map<String, ?> values, String path) {
        Object direct = values.get(path);
        if (direct != null || !path.contains(".")) {
            return direct;
        }
        Object current = values;
        for (String step : path.split("\\.")) {
            if (!(current instanceof Map<?, ?> map)) {
                return null;
            }
            current = map.get(step);
        }
        return current;
    }

    /** The reference's fallback without a value: the name in title case ("first_name" says "First Name"). */
    private static String title(String path) {
        StringBuilder out = new StringBuilder();
        for (String word : path.substring(path.lastIndexOf('.') + 1).split("[_\\s]+")) {
            if (!word.isEmpty()) {
                out.append(out.isEmpty() ? "" : " ").append(Character.toUpperCase(word.charAt(0)))
                        .append(word.substring(1));
            }
        }
        return out.toString();
    }

    /**
     * Replaces every plain {{name}} that has a value; the others are left as written (the editor's preview shows what
     * is unresolved; calls {@link #speak}).
     */
    public static String render(String text, Map<String, ?> values) {
        if (text == null) {
            return null;
        }
        Matcher m = REFERENCE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Object value = values.get(m.group(1));
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? m.group() : String.valueOf(value)));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** The plain references in a text (same rules as {@link #requiredBy}). */
    public static Set<String> referencedIn(String text) {
        Set<String> names = new TreeSet<>();
        collect(text, names);
        return names;
    }

    private static void collect(Object text, Set<String> names) {
        if (!(text instanceof String s)) {
            return;
        }
        Matcher m = REFERENCE.matcher(s);
        while (m.find()) {
            String name = m.group(1);
            if (!name.isEmpty() && !name.contains(".") && !name.contains("|") && !SYSTEM_NAMES.contains(name)) {
                names.add(name);
            }
        }
    }
}
