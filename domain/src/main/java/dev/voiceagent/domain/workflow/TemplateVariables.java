package dev.voiceagent.domain.workflow;

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

    /** Replaces every plain {{name}} that has a value; the others are left as written. */
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
