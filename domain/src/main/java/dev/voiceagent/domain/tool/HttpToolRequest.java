package dev.voiceagent.domain.tool;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.shared.JsonText;
import dev.voiceagent.domain.workflow.JsonTree;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The request an http_api tool makes for one call: the model's arguments and the preset parameters (fixed
 * values or {{initial_context.x}} / {{gathered_context.x}} templates) fill the URL's {{placeholders}}; the rest
 * go in the query string (GET, DELETE) or the JSON body (the body template when there is one, else an object of
 * the values); the static headers, then the credential's headers, which win.
 */
public record HttpToolRequest(String method, String url, Map<String, String> headers, Map<String, Object> body,
        Map<String, Object> params, int timeoutMs, List<String> hiddenHeaders) {

    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_.\\-]+)\\s*}}");

    /**
     * @param arguments what the model passed (or a test's llm_params)
     * @param presetOverrides resolved preset values a test gives directly; the others resolve from the context
     * @param context the conversation's values: initial_context, gathered_context (and the initial values at the top)
     * @param credential the tool's credential, or null
     */
    public static HttpToolRequest plan(Tool tool, Map<String, Object> arguments, Map<String, Object> presetOverrides,
            Map<String, Object> context, Credential credential) {
        if (tool.incomplete()) {
            throw new DomainRuleViolation("The tool \"" + tool.name() + "\" has no URL yet: set its URL before"
                    + " testing it or giving it to an agent");
        }
        Map<String, Object> config = tool.config();
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, Object> args = arguments == null ? Map.of() : arguments;
        for (Object item : listOf(config.get("parameters"))) {
            Map<String, Object> p = JsonTree.asMap(item);
            String name = (String) p.get("name");
            Object value = args.get(name);
            if (value == null && Boolean.TRUE.equals(p.get("required"))) {
                throw new DomainRuleViolation("Missing required parameter: " + name);
            }
            if (value != null) {
                values.put(name, value);
            }
        }
        Map<String, Object> overrides = presetOverrides == null ? Map.of() : presetOverrides;
        for (Object item : listOf(config.get("preset_parameters"))) {
            Map<String, Object> p = JsonTree.asMap(item);
            String name = (String) p.get("name");
            Object value = overrides.containsKey(name) ? overrides.get(name)
                    : typed(resolve((String) p.get("value_template"), context), (String) p.get("type"));
            if ((value == null || value instanceof String s && s.isBlank()) && Boolean.TRUE.equals(p.get("required"))) {
                throw new DomainRuleViolation("Preset parameter " + name + " did not resolve to a value");
            }
            if (value != null) {
                values.put(name, value);
            }
        }
        String method = (String) config.get("method");
        Map<String, Object> unused = new LinkedHashMap<>(values);
        String url = fill((String) config.get("url"), values, unused, true);
        Map<String, String> headers = new LinkedHashMap<>();
        Map<String, Object> staticHeaders = JsonTree.asMap(config.get("headers"));
        if (staticHeaders != null) {
            staticHeaders.forEach((k, v) -> headers.put(k, fill(String.valueOf(v), values, null, false)));
        }
        List<String> hidden = new ArrayList<>();
        if (credential != null) {
            credential.headers().forEach((k, v) -> {
                headers.keySet().removeIf(existing -> existing.equalsIgnoreCase(k));
                headers.put(k, v);
                hidden.add(k);
            });
        }
        Map<String, Object> body = null;
        Map<String, Object> params = null;
        if (method.equals("GET") || method.equals("DELETE")) {
            if (!unused.isEmpty()) {
                params = unused;
                StringBuilder query = new StringBuilder(url.contains("?") ? "&" : "?");
                unused.forEach((k, v) -> query.append(query.length() > 1 ? "&" : "").append(encode(k)).append('=')
                        .append(encode(v instanceof String str ? str : JsonText.write(v))));
                url = url + query;
            }
        } else {
            Map<String, Object> template = JsonTree.asMap(config.get("body_template"));
            body = template != null ? JsonTree.asMap(fillTree(template, values)) : values;
        }
        int timeout = config.get("timeout_ms") instanceof Number n ? n.intValue() : ToolDefinitions.DEFAULT_TIMEOUT_MS;
        return new HttpToolRequest(method, url, Map.copyOf(headers), body, params,
                Math.min(Math.max(timeout, 1), ToolDefinitions.MAX_TIMEOUT_MS), List.copyOf(hidden));
    }

    /** The headers as shown back: the credential's values hidden. */
    public Map<String, String> shownHeaders() {
        Map<String, String> out = new LinkedHashMap<>();
        headers.forEach((k, v) -> out.put(k, hiddenHeaders.contains(k) ? "********" : v));
        return out;
    }

    /** A template's value from the context: {{initial_context.a}}, {{gathered_context.b}}, {{a}}. */
    static Object resolve(String template, Map<String, Object> context) {
        if (template == null) {
            return null;
        }
        Matcher whole = PLACEHOLDER.matcher(template.strip());
        if (whole.matches()) {
            return lookup(whole.group(1), context);
        }
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            Object value = lookup(m.group(1), context);
            m.appendReplacement(out, Matcher.quoteReplacement(value == null ? "" : String.valueOf(value)));
        }
        m.appendTail(out);
        return out.toString();
    }

    private static Object lookup(String path, Map<String, Object> context) {
        Object at = context;
        for (String part : path.split("\\.")) {
            Map<String, Object> map = JsonTree.asMap(at);
            if (map == null) {
                return null;
            }
            at = map.get(part);
        }
        return at;
    }

    private static Object typed(Object value, String type) {
        if (!(value instanceof String s) || type == null) {
            return value;
        }
        try {
            return switch (type) {
                case "number" -> s.isBlank() ? null : s.contains(".") ? (Object) Double.parseDouble(s) : (Object) Long.parseLong(s);
                case "boolean" -> s.isBlank() ? null : Boolean.parseBoolean(s.strip());
                default -> s;
            };
        } catch (NumberFormatException e) {
            throw new DomainRuleViolation("Preset value \"" + s + "\" is not a number");
        }
    }

    /** {{name}} in a text replaced by the value (URL-encoded in a URL); the names used are taken out of unused. */
    private static String fill(String text, Map<String, Object> values, Map<String, Object> unused, boolean url) {
        Matcher m = PLACEHOLDER.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String name = m.group(1);
            Object value = values.get(name);
            if (unused != null) {
                unused.remove(name);
            }
            String shown = value == null ? "" : value instanceof String str ? str : JsonText.write(value);
            m.appendReplacement(out, Matcher.quoteReplacement(url ? encode(shown) : shown));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** A body template: a string that is exactly {{name}} takes the value itself (typed); others are filled in. */
    private static Object fillTree(Object node, Map<String, Object> values) {
        if (node instanceof Map<?, ?> map) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(String.valueOf(k), fillTree(v, values)));
            return out;
        }
        if (node instanceof List<?> list) {
            return list.stream().map(v -> fillTree(v, values)).toList();
        }
        if (node instanceof String s) {
            Matcher whole = PLACEHOLDER.matcher(s.strip());
            if (whole.matches()) {
                return values.get(whole.group(1));
            }
            return fill(s, values, null, false);
        }
        return node;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static List<?> listOf(Object value) {
        return value instanceof List<?> list ? list : List.of();
    }
}
