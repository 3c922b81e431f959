package dev.voiceagent.adapters.rest.workflow;

import dev.voiceagent.domain.workflow.NodeTypeSpec;
import dev.voiceagent.domain.workflow.NodeTypes;
import dev.voiceagent.domain.workflow.PropertySpec;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The page a node type's docs_url points to: a plain HTML rendering of the same registry the validator
 * and GET /api/v1/node-types read (what the node does, how it may be connected, every field), so the
 * documentation cannot drift from what is enforced. Public, like the registry itself.
 */
@ApplicationScoped
public class NodeTypeDocs {

    static final String PATH = "/docs/node-types/";

    void install(@Observes Router router) {
        router.get(PATH + ":name").handler(this::page);
    }

    void page(RoutingContext context) {
        String name = context.pathParam("name");
        var type = NodeTypes.byName(name);
        context.response().putHeader("Content-Type", "text/html; charset=utf-8")
                .putHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
                .setStatusCode(type.isPresent() ? 200 : 404)
                .end(type.map(NodeTypeDocs::html).orElseGet(() -> "<!doctype html><title>Unknown node type</title>"
                        + "<p>No node type is named " + escape(name) + ". Known: " + NodeTypes.all().stream()
                                .map(t -> "<a href=\"" + t.name() + "\">" + t.name() + "</a>")
                                .collect(Collectors.joining(", ")) + "</p>"));
    }

    static String html(NodeTypeSpec t) {
        StringBuilder out = new StringBuilder("<!doctype html><html><head><meta charset=\"utf-8\"><title>")
                .append(escape(t.displayName())).append(" node</title><style>body{font-family:sans-serif;max-width:60em;"
                        + "margin:2em auto}td,th{border-bottom:1px solid #ddd;padding:.3em .6em;text-align:left;"
                        + "vertical-align:top}</style></head><body>");
        out.append("<h1>").append(escape(t.displayName())).append(" <code>").append(escape(t.name()))
                .append("</code></h1><p>").append(escape(t.description())).append("</p>");
        if (t.llmHint() != null) {
            out.append("<p>").append(escape(t.llmHint())).append("</p>");
        }
        var c = t.graphConstraints();
        out.append("<h2>Connections</h2><ul>")
                .append(limit("instances per workflow", c.minInstances(), c.maxInstances()))
                .append(limit("incoming edges", c.minIncoming(), c.maxIncoming()))
                .append(limit("outgoing edges", c.minOutgoing(), c.maxOutgoing())).append("</ul>");
        out.append("<h2>Fields</h2>");
        table(out, t.properties());
        return out.append("</body></html>").toString();
    }

    private static void table(StringBuilder out, List<PropertySpec> properties) {
        out.append("<table><tr><th>Field</th><th>Type</th><th>Required</th><th>Default</th><th>What it is</th></tr>");
        for (PropertySpec p : properties) {
            out.append("<tr><td><code>").append(escape(p.name())).append("</code></td><td>").append(p.type().wireName())
                    .append("</td><td>").append(p.required() ? "yes" : "").append("</td><td>")
                    .append(p.defaultValue() == null ? "" : escape(String.valueOf(p.defaultValue()))).append("</td><td>")
                    .append(escape(p.description()));
            if (p.options() != null) {
                out.append(" One of: ").append(escape(p.options().stream().map(o -> String.valueOf(o.value()))
                        .collect(Collectors.joining(", ")))).append('.');
            }
            if (p.minValue() != null || p.maxValue() != null) {
                out.append(" From ").append(p.minValue()).append(" to ").append(p.maxValue()).append('.');
            }
            if (p.showWhen() != null) {
                for (Map.Entry<String, List<Object>> when : p.showWhen().entrySet()) {
                    out.append(" Used when <code>").append(escape(when.getKey())).append("</code> is ")
                            .append(escape(when.getValue().stream().map(String::valueOf)
                                    .collect(Collectors.joining(" or ")))).append('.');
                }
            }
            if (p.properties() != null) {
                out.append(" A list of:");
                table(out, p.properties());
            }
            out.append("</td></tr>");
        }
        out.append("</table>");
    }

    private static String limit(String what, Integer min, Integer max) {
        if (min == null && max == null) {
            return "<li>" + what + ": any number</li>";
        }
        return "<li>" + what + ": " + (min == null ? 0 : min) + " to " + (max == null ? "any number" : max) + "</li>";
    }

    static String escape(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;")
                .replace("'", "&#39;");
    }
}
