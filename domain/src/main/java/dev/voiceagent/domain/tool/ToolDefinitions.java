package dev.voiceagent.domain.tool;

import dev.voiceagent.domain.model.SettingsProblem;
import dev.voiceagent.domain.workflow.JsonTree;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The typed definition of each tool category ({schema_version: 1, type, config}), checked field by field as
 * the reference's schemas do, with the defaults filled in, so what is stored is always complete.
 */
public final class ToolDefinitions {

    public static final int MAX_TIMEOUT_MS = 30_000;
    public static final int DEFAULT_TIMEOUT_MS = 5_000;
    static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");
    static final Set<String> PARAMETER_TYPES = Set.of("string", "number", "boolean", "object", "array");
    static final Set<String> MESSAGE_TYPES = Set.of("none", "custom", "audio");
    static final Set<String> DESTINATION_SOURCES = Set.of("static", "dynamic", "context_mapping");
    private static final Pattern PARAMETER_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
    private static final Pattern HEADER_NAME = Pattern.compile("[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}");
    private static final int MAX_PARAMETERS = 50;

    private ToolDefinitions() {
    }

    /**
     * The definition as stored: checked for its category (which must be its type) and completed with the
     * defaults; a refusal lists every problem at its loc (["body", "definition", ...]).
     */
    public static Map<String, Object> normalized(ToolCategory category, Map<String, Object> definition) {
        List<SettingsProblem> problems = new ArrayList<>();
        Map<String, Object> out = new LinkedHashMap<>();
        List<Object> at = List.of("body", "definition");
        if (definition == null) {
            throw new InvalidToolDefinition(List.of(new SettingsProblem(at, "Field required", "missing", null)));
        }
        Object version = definition.getOrDefault("schema_version", 1);
        if (!(version instanceof Number n) || n.doubleValue() != 1) {
            problems.add(problem(at, "schema_version", "Only schema_version 1 is supported", version));
        }
        out.put("schema_version", 1);
        Object type = definition.get("type");
        if (!(type instanceof String t) || ToolCategory.byWireName(t).isEmpty()) {
            problems.add(problem(at, "type", "type must be one of http_api, end_call, transfer_call, calculator, native,"
                    + " integration, mcp", type));
            throw new InvalidToolDefinition(problems);
        }
        if (!category.wireName().equals(type)) {
            problems.add(new SettingsProblem(List.of("body", "category"), "category must equal definition.type ("
                    + type + ")", "value_error", category.wireName()));
        }
        out.put("type", type);
        Map<String, Object> config = JsonTree.asMap(definition.get("config"));
        if (definition.get("config") != null && config == null) {
            problems.add(problem(at, "config", "config must be an object", null));
        }
        List<Object> cfg = List.of("body", "definition", "config");
        Map<String, Object> in = config == null ? Map.of() : config;
        Map<String, Object> checked = switch (ToolCategory.byWireName((String) type).orElseThrow()) {
            case HTTP_API -> httpApi(in, cfg, problems, config == null);
            case END_CALL -> endCall(in, cfg, problems);
            case TRANSFER_CALL -> transferCall(in, cfg, problems);
            case MCP -> mcp(in, cfg, problems, config == null);
            case CALCULATOR -> null;
            case NATIVE, INTEGRATION -> config == null ? null : new LinkedHashMap<>(config);
        };
        if (checked != null) {
            out.put("config", checked);
        }
        if (!problems.isEmpty()) {
            throw new InvalidToolDefinition(problems);
        }
        return out;
    }

    /** The credentials a definition authenticates with (its own, its transfer resolver's). */
    public static Set<String> credentialUuids(Map<String, Object> definition) {
        Set<String> out = new LinkedHashSet<>();
        Map<String, Object> config = JsonTree.asMap(definition == null ? null : definition.get("config"));
        if (config == null) {
            return out;
        }
        if (config.get("credential_uuid") instanceof String s && !s.isBlank()) {
            out.add(s);
        }
        Map<String, Object> resolver = JsonTree.asMap(config.get("resolver"));
        if (resolver != null && resolver.get("credential_uuid") instanceof String s && !s.isBlank()) {
            out.add(s);
        }
        return out;
    }

    private static Map<String, Object> httpApi(Map<String, Object> in, List<Object> at, List<SettingsProblem> problems,
            boolean missing) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (missing) {
            problems.add(new SettingsProblem(at, "Field required", "missing", null));
            return out;
        }
        Object method = in.get("method");
        String m = method instanceof String s ? s.toUpperCase(Locale.ROOT) : null;
        if (m == null || !METHODS.contains(m)) {
            problems.add(problem(at, "method", "method must be one of GET, POST, PUT, PATCH, DELETE", method));
        }
        out.put("method", m);
        // "" is an incomplete tool, its URL set later on its page (the reference dashboard's create dialog sends it)
        out.put("url", "".equals(in.get("url")) ? "" : url(in.get("url"), at, "url", problems));
        out.put("headers", headers(in.get("headers"), at, problems));
        out.put("credential_uuid", optionalString(in.get("credential_uuid"), at, "credential_uuid", problems));
        List<Map<String, Object>> parameters = parameters(in.get("parameters"), at, "parameters", problems, false);
        List<Map<String, Object>> presets = parameters(in.get("preset_parameters"), at, "preset_parameters", problems,
                true);
        Set<String> names = new HashSet<>();
        parameters.forEach(p -> names.add((String) p.get("name")));
        for (int i = 0; i < presets.size(); i++) {
            if (names.contains(presets.get(i).get("name"))) {
                problems.add(problem(append(at, "preset_parameters", i), "name", "A preset parameter cannot have the"
                        + " name of a parameter", presets.get(i).get("name")));
            }
        }
        out.put("parameters", parameters);
        out.put("preset_parameters", presets);
        out.put("timeout_ms", integer(in.get("timeout_ms"), DEFAULT_TIMEOUT_MS, 1, MAX_TIMEOUT_MS, at, "timeout_ms",
                problems));
        for (String text : List.of("customMessage", "customMessageRecordingId")) {
            out.put(text, optionalString(in.get(text), at, text, problems));
        }
        Object messageType = in.get("customMessageType");
        if (messageType != null && !"text".equals(messageType) && !"audio".equals(messageType)) {
            problems.add(problem(at, "customMessageType", "customMessageType must be text or audio", messageType));
        }
        out.put("customMessageType", messageType);
        Object body = in.get("body_template");
        if (body != null && JsonTree.asMap(body) == null) {
            problems.add(problem(at, "body_template", "body_template must be a JSON object", null));
        }
        out.put("body_template", body);
        return out;
    }

    private static Map<String, Object> endCall(Map<String, Object> in, List<Object> at, List<SettingsProblem> problems) {
        Map<String, Object> out = new LinkedHashMap<>();
        out.put("messageType", oneOf(in.get("messageType"), "none", MESSAGE_TYPES, at, "messageType", problems));
        out.put("customMessage", optionalString(in.get("customMessage"), at, "customMessage", problems));
        out.put("audioRecordingId", optionalString(in.get("audioRecordingId"), at, "audioRecordingId", problems));
        Object reason = in.getOrDefault("endCallReason", false);
        if (!(reason instanceof Boolean)) {
            problems.add(problem(at, "endCallReason", "Input should be a valid boolean", reason));
        }
        out.put("endCallReason", reason instanceof Boolean b && b);
        out.put("endCallReasonDescription", optionalString(in.get("endCallReasonDescription"), at,
                "endCallReasonDescription", problems));
        return out;
    }

    private static Map<String, Object> transferCall(Map<String, Object> in, List<Object> at,
            List<SettingsProblem> problems) {
        Map<String, Object> out = new LinkedHashMap<>();
        String source = oneOf(in.get("destination_source"), "static", DESTINATION_SOURCES, at, "destination_source",
                problems);
        out.put("destination_source", source);
        String destination = optionalString(in.get("destination"), at, "destination", problems);
        if ("static".equals(source) && (destination == null || destination.isBlank())) {
            problems.add(problem(at, "destination", "A static transfer needs a destination (a phone number or SIP URI)",
                    destination));
        }
        out.put("destination", destination == null ? "" : destination.strip());
        out.put("messageType", oneOf(in.get("messageType"), "none", MESSAGE_TYPES, at, "messageType", problems));
        out.put("customMessage", optionalString(in.get("customMessage"), at, "customMessage", problems));
        out.put("audioRecordingId", optionalString(in.get("audioRecordingId"), at, "audioRecordingId", problems));
        out.put("timeout", integer(in.get("timeout"), 30, 5, 120, at, "timeout", problems));
        // beyond the reference: what the person the call goes to hears when they answer, before the caller joins
        String whisper = optionalString(in.get("whisper_message"), at, "whisper_message", problems);
        if (whisper != null && whisper.length() > 1_000) {
            problems.add(problem(at, "whisper_message", "A whisper is at most 1000 characters", whisper.length()));
        }
        if (whisper != null && !whisper.isBlank()) {
            out.put("whisper_message", whisper.strip());
        }
        String whisperRecording = optionalString(in.get("whisper_recording_id"), at, "whisper_recording_id", problems);
        if (whisperRecording != null && !whisperRecording.isBlank()) {
            out.put("whisper_recording_id", whisperRecording.strip());
        }
        out.put("parameters", parameters(in.get("parameters"), at, "parameters", problems, false));
        Map<String, Object> resolver = JsonTree.asMap(in.get("resolver"));
        if ("dynamic".equals(source) && resolver == null) {
            problems.add(problem(at, "resolver", "A dynamic transfer needs a resolver {url}", null));
        }
        if (resolver != null) {
            List<Object> r = append(at, "resolver");
            Map<String, Object> checked = new LinkedHashMap<>();
            checked.put("type", "http");
            checked.put("url", url(resolver.get("url"), r, "url", problems));
            checked.put("headers", headers(resolver.get("headers"), r, problems));
            checked.put("credential_uuid", optionalString(resolver.get("credential_uuid"), r, "credential_uuid", problems));
            checked.put("timeout_ms", integer(resolver.get("timeout_ms"), 3_000, 500, 5_000, r, "timeout_ms", problems));
            checked.put("wait_message", optionalString(resolver.get("wait_message"), r, "wait_message", problems));
            checked.put("parameters", parameters(resolver.get("parameters"), r, "parameters", problems, false));
            checked.put("preset_parameters", parameters(resolver.get("preset_parameters"), r, "preset_parameters",
                    problems, true));
            out.put("resolver", checked);
        } else {
            out.put("resolver", null);
        }
        Object mapping = in.get("context_mapping");
        if ("context_mapping".equals(source) && JsonTree.asMap(mapping) == null) {
            problems.add(problem(at, "context_mapping", "A context_mapping transfer needs its rules", null));
        }
        Map<String, Object> rules = JsonTree.asMap(mapping);
        if (rules != null && rules.get("rules") instanceof List<?> list && list.size() > 20) {
            problems.add(problem(append(at, "context_mapping"), "rules", "At most 20 rules", list.size()));
        }
        out.put("context_mapping", mapping);
        return out;
    }

    private static Map<String, Object> mcp(Map<String, Object> in, List<Object> at, List<SettingsProblem> problems,
            boolean missing) {
        Map<String, Object> out = new LinkedHashMap<>();
        if (missing) {
            problems.add(new SettingsProblem(at, "Field required", "missing", null));
            return out;
        }
        Object transport = in.getOrDefault("transport", "streamable_http");
        if (!"streamable_http".equals(transport)) {
            problems.add(problem(at, "transport", "Only the streamable_http transport is supported", transport));
        }
        out.put("transport", "streamable_http");
        out.put("url", url(in.get("url"), at, "url", problems));
        out.put("credential_uuid", optionalString(in.get("credential_uuid"), at, "credential_uuid", problems));
        List<String> filter = new ArrayList<>();
        Object tools = in.get("tools_filter");
        if (tools != null && !(tools instanceof List<?>)) {
            problems.add(problem(at, "tools_filter", "tools_filter must be a list of tool names", null));
        } else if (tools != null) {
            for (Object t : (List<?>) tools) {
                if (!(t instanceof String s) || s.isBlank()) {
                    problems.add(problem(at, "tools_filter", "tools_filter must be a list of tool names", t));
                } else {
                    filter.add(s);
                }
            }
        }
        out.put("tools_filter", filter);
        out.put("timeout_secs", integer(in.get("timeout_secs"), 30, 1, 120, at, "timeout_secs", problems));
        out.put("sse_read_timeout_secs", integer(in.get("sse_read_timeout_secs"), 300, 0, 3_600, at,
                "sse_read_timeout_secs", problems));
        Object discovered = in.get("discovered_tools");
        out.put("discovered_tools", discovered instanceof List<?> list ? list : List.of());
        return out;
    }

    // --- fields -------------------------------------------------------------------------------------------

    private static String url(Object value, List<Object> at, String field, List<SettingsProblem> problems) {
        if (!(value instanceof String s) || s.isBlank()) {
            problems.add(new SettingsProblem(append(at, field), value == null ? "Field required" : "Input should be a"
                    + " valid string", value == null ? "missing" : "string_type", null));
            return null;
        }
        String url = s.strip();
        try {
            // templates ({{order_id}}) may stand in the path or query: check the URL with them neutralised
            URI uri = URI.create(url.replaceAll("\\{\\{[^{}]*}}", "x"));
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
                problems.add(problem(at, field, "URL must be an http(s) URL with a host", s));
            } else if (uri.getRawUserInfo() != null) {
                problems.add(problem(at, field, "Credentials do not belong in the URL: use credential_uuid", null));
            }
        } catch (IllegalArgumentException e) {
            problems.add(problem(at, field, "URL must be an http(s) URL with a host", s));
        }
        return url;
    }

    private static Map<String, String> headers(Object value, List<Object> at, List<SettingsProblem> problems) {
        Map<String, String> out = new LinkedHashMap<>();
        if (value == null) {
            return out;
        }
        Map<String, Object> map = JsonTree.asMap(value);
        if (map == null) {
            problems.add(problem(at, "headers", "headers must be an object of strings", null));
            return out;
        }
        map.forEach((name, v) -> {
            if (!HEADER_NAME.matcher(name).matches()) {
                problems.add(problem(append(at, "headers"), name, "Not an HTTP header name", name));
            } else if (!(v instanceof String s) || s.contains("\r") || s.contains("\n")) {
                problems.add(problem(append(at, "headers"), name, "A header value must be a single-line string", null));
            } else {
                out.put(name, s);
            }
        });
        return out;
    }

    private static List<Map<String, Object>> parameters(Object value, List<Object> at, String field,
            List<SettingsProblem> problems, boolean preset) {
        List<Map<String, Object>> out = new ArrayList<>();
        if (value == null) {
            return out;
        }
        if (!(value instanceof List<?> list)) {
            problems.add(problem(at, field, field + " must be a list", null));
            return out;
        }
        if (list.size() > MAX_PARAMETERS) {
            problems.add(problem(at, field, "At most " + MAX_PARAMETERS + " parameters", list.size()));
            return out;
        }
        Set<String> names = new HashSet<>();
        for (int i = 0; i < list.size(); i++) {
            List<Object> p = append(at, field, i);
            Map<String, Object> item = JsonTree.asMap(list.get(i));
            if (item == null) {
                problems.add(new SettingsProblem(p, "Input should be a valid dictionary", "dict_type", null));
                continue;
            }
            Map<String, Object> checked = new LinkedHashMap<>();
            Object name = item.get("name");
            if (!(name instanceof String n) || !PARAMETER_NAME.matcher(n).matches()) {
                problems.add(problem(p, "name", "A parameter name is a letter or _ followed by letters, digits or _"
                        + " (at most 64)", name));
            } else if (!names.add(n)) {
                problems.add(problem(p, "name", "Parameter \"" + n + "\" is defined more than once", n));
            }
            checked.put("name", name);
            Object type = item.get("type");
            if (!(type instanceof String t) || !PARAMETER_TYPES.contains(t)) {
                problems.add(problem(p, "type", "type must be one of string, number, boolean, object, array", type));
            }
            checked.put("type", type);
            if (preset) {
                Object template = item.get("value_template");
                if (!(template instanceof String)) {
                    problems.add(new SettingsProblem(append(p, "value_template"), "Field required", "missing", null));
                }
                checked.put("value_template", template);
            } else {
                Object description = item.get("description");
                if (!(description instanceof String)) {
                    problems.add(new SettingsProblem(append(p, "description"), "Field required", "missing", null));
                }
                checked.put("description", description);
            }
            Object required = item.getOrDefault("required", true);
            if (!(required instanceof Boolean)) {
                problems.add(problem(p, "required", "Input should be a valid boolean", required));
            }
            checked.put("required", !(required instanceof Boolean b) || b);
            out.add(checked);
        }
        return out;
    }

    private static String oneOf(Object value, String fallback, Set<String> allowed, List<Object> at, String field,
            List<SettingsProblem> problems) {
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof String s) || !allowed.contains(s)) {
            problems.add(problem(at, field, field + " must be one of " + String.join(", ", new TreeSet<>(allowed)),
                    value));
            return fallback;
        }
        return s;
    }

    private static int integer(Object value, int fallback, int min, int max, List<Object> at, String field,
            List<SettingsProblem> problems) {
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue())) {
            problems.add(new SettingsProblem(append(at, field), "Input should be a valid integer", "int_type", null));
            return fallback;
        }
        long v = n.longValue();
        if (v < min || v > max) {
            problems.add(problem(at, field, field + " must be between " + min + " and " + max, v));
            return fallback;
        }
        return (int) v;
    }

    private static String optionalString(Object value, List<Object> at, String field, List<SettingsProblem> problems) {
        if (value == null) {
            return null;
        }
        if (!(value instanceof String s)) {
            problems.add(new SettingsProblem(append(at, field), "Input should be a valid string", "string_type", null));
            return null;
        }
        return s;
    }

    private static SettingsProblem problem(List<Object> at, String field, String message, Object input) {
        return new SettingsProblem(append(at, field), message, "value_error",
                input instanceof String || input instanceof Number || input instanceof Boolean ? input : null);
    }

    private static List<Object> append(List<Object> at, Object... more) {
        List<Object> out = new ArrayList<>(at);
        out.addAll(List.of(more));
        return out;
    }
}
