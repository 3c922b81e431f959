package dev.voiceagent.domain.tool;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The request a workflow's webhook node makes when a run ends: its method and endpoint_url, its custom headers, then
 * its credential's headers (which win), and for a method with a body its payload_template with every
 * {{placeholder}} string resolved from the run (workflow_run_id, disposition, initial_context.x,
 * gathered_context.x; a string that is one placeholder keeps the value's type), or the run's results when it has
 * no template.
 */
public final class NodeWebhook {

    public static final int TIMEOUT_MS = 10_000;
    static final String TYPE = "webhook";
    static final Set<String> METHODS = Set.of("GET", "POST", "PUT", "PATCH", "DELETE");

    private NodeWebhook() {
    }

    /** The webhook nodes a completed run of this definition triggers: its enabled ones with an endpoint_url. */
    public static List<String> triggered(WorkflowDefinition definition) {
        return definition.nodes().stream().filter(n -> TYPE.equals(n.type()) && n.id() != null && enabled(n.data()))
                .map(WorkflowDefinition.Node::id).toList();
    }

    public static boolean enabled(Map<String, Object> data) {
        return data != null && !Boolean.FALSE.equals(data.get("enabled"))
                && data.get("endpoint_url") instanceof String url && !url.isBlank();
    }

    public static HttpToolRequest plan(Map<String, Object> data, Map<String, Object> run, Credential credential) {
        String method = data.get("http_method") instanceof String m ? m.strip().toUpperCase(Locale.ROOT) : "POST";
        if (!METHODS.contains(method)) {
            throw new DomainRuleViolation("The webhook node's http_method is not one of " + METHODS);
        }
        Object url = HttpToolRequest.resolve((String) data.get("endpoint_url"), run);
        if (!(url instanceof String u) || u.isBlank()) {
            throw new DomainRuleViolation("The webhook node has no endpoint_url");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (Object item : JsonTree.asList(data.get("custom_headers")) == null ? List.of()
                : JsonTree.asList(data.get("custom_headers"))) {
            Map<String, Object> header = JsonTree.asMap(item);
            if (header != null && header.get("key") instanceof String key && !key.isBlank()) {
                Object value = HttpToolRequest.resolve(header.get("value") == null ? "" : String.valueOf(
                        header.get("value")), run);
                headers.put(key.strip(), value == null ? "" : String.valueOf(value));
            }
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
        if (!method.equals("GET") && !method.equals("DELETE")) {
            Map<String, Object> template = JsonTree.asMap(data.get("payload_template"));
            body = template == null ? new LinkedHashMap<>(run) : render(template, run);
        }
        return new HttpToolRequest(method, u.strip(), headers, body, null, TIMEOUT_MS, hidden);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> render(Map<String, Object> template, Map<String, Object> run) {
        return (Map<String, Object>) renderValue(template, run);
    }

    private static Object renderValue(Object value, Map<String, Object> run) {
        if (value instanceof String s) {
            return HttpToolRequest.resolve(s, run);
        }
        Map<String, Object> map = JsonTree.asMap(value);
        if (map != null) {
            Map<String, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(k, renderValue(v, run)));
            return out;
        }
        List<?> list = JsonTree.asList(value);
        if (list != null) {
            return list.stream().map(v -> renderValue(v, run)).toList();
        }
        return value;
    }
}
