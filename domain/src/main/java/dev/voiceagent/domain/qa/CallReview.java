package dev.voiceagent.domain.qa;

import dev.voiceagent.domain.conversation.FeedbackEvents;
import dev.voiceagent.domain.shared.JsonText;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.NodeTypes;
import dev.voiceagent.domain.workflow.TemplateVariables;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * What the review of a completed call works on and what it keeps, as the reference's QA does: the call's log split
 * into the segments each node held (a node transition moves what follows to its node: the caller's words before it
 * belong to the node that heard them), each segment's transcript ("[12.3s] user: ...", tool calls named) and figures
 * (duration, turns, average and worst voice-to-voice latency, time to first byte), the reviewer's prompt with its
 * placeholders filled, and the review read back from the model's JSON answer into the run's annotations.
 */
public final class CallReview {

    /** The model's instructions for the summary of the conversation before a node's segment (the reference's). */
    public static final String CONVERSATION_SUMMARY_PROMPT = "You are summarizing a portion of a voice AI conversation. "
            + "Produce a concise summary (3-5 sentences) covering key topics, information exchanged, and current state. "
            + "We would be using this summary in doing a QA of the conversation that the voice AI agent did with someone "
            + "so try to capture the nuances of the conversation as much as possible.";

    /** The key of a review over a call whose log names no node (a call that never reached one). */
    public static final String WHOLE_CALL = "whole_call";

    private static final List<String> PLACEHOLDERS = List.of("node_summary", "previous_conversation_summary",
            "transcript", "metrics");

    private CallReview() {
    }

    /** The part of a call one node held: its events in order. */
    public record Segment(String nodeId, String nodeName, String nodePrompt, List<Map<String, Object>> events) {

        public Segment {
            events = List.copyOf(events);
        }
    }

    /**
     * The call's log split by the node that held each event, in the order the nodes were first reached; only segments
     * with something said. A log of a definition without a start node is one {@link #WHOLE_CALL} segment.
     */
    public static List<Segment> segments(List<Map<String, Object>> events, WorkflowDefinition definition) {
        Map<String, WorkflowDefinition.Node> nodes = new LinkedHashMap<>();
        String current = null;
        for (WorkflowDefinition.Node node : definition.nodes()) {
            if (node.id() != null) {
                nodes.put(node.id(), node);
                if (current == null && NodeTypes.START_CALL.equals(node.type())) {
                    current = node.id();
                }
            }
        }
        if (current == null) {
            current = WHOLE_CALL;
        }
        Map<String, List<Map<String, Object>>> byNode = new LinkedHashMap<>();
        for (Map<String, Object> event : events) {
            if (FeedbackEvents.NODE_TRANSITION.equals(event.get("type"))) {
                Map<String, Object> payload = JsonTree.asMap(event.get("payload"));
                String to = payload == null ? null : JsonTree.asString(payload.get("node_id"));
                if (to != null) {
                    current = to;
                }
            }
            byNode.computeIfAbsent(current, k -> new ArrayList<>()).add(event);
        }
        List<Segment> segments = new ArrayList<>();
        byNode.forEach((id, held) -> {
            if (held.stream().anyMatch(CallReview::said)) {
                WorkflowDefinition.Node node = nodes.get(id);
                Map<String, Object> data = node == null || node.data() == null ? Map.of() : node.data();
                String name = JsonTree.asString(data.get("name"));
                segments.add(new Segment(id, name == null ? id : name, JsonTree.asString(data.get("prompt")), held));
            }
        });
        return segments;
    }

    /**
     * The transcript the reviewer reads: one line per final utterance and tool call, timed from {@code start} (the
     * call's first event): "[4.2s] user: ...", "[5.0s] assistant: ...", "[6.1s] [tool_call]: name".
     */
    public static String transcript(List<Map<String, Object>> events, Instant start) {
        StringBuilder out = new StringBuilder();
        for (Map<String, Object> event : events) {
            Map<String, Object> payload = JsonTree.asMap(event.get("payload"));
            payload = payload == null ? Map.of() : payload;
            String type = String.valueOf(event.get("type"));
            String line;
            if (FeedbackEvents.BOT_TEXT.equals(type)) {
                line = "assistant: " + text(payload.get("text"));
            } else if (FeedbackEvents.USER_TRANSCRIPTION.equals(type) && Boolean.TRUE.equals(payload.get("final"))) {
                line = "user: " + text(payload.get("text"));
            } else if (FeedbackEvents.FUNCTION_CALL_START.equals(type)) {
                String name = JsonTree.asString(payload.get("function_name"));
                line = "[tool_call]: " + (name == null ? "unknown" : name);
            } else {
                continue;
            }
            Instant at = instant(event.get("timestamp"));
            double seconds = start == null || at == null ? 0 : Duration.between(start, at).toMillis() / 1000.0;
            out.append(out.isEmpty() ? "" : "\n").append(String.format(Locale.ROOT, "[%.1fs] ", seconds)).append(line);
        }
        return out.toString();
    }

    /** The first event's time, the start every transcript line is timed from; null for an empty log. */
    public static Instant start(List<Map<String, Object>> events) {
        return events.isEmpty() ? null : instant(events.getFirst().get("timestamp"));
    }

    /**
     * The figures the reviewer is given: call_duration_seconds (null for a segment), num_turns (turns with words
     * said), avg_latency_seconds and max_latency_seconds (voice-to-voice), avg_ttfb_seconds; null where none was
     * measured.
     */
    public static Map<String, Object> metrics(List<Map<String, Object>> events, Double callDurationSeconds) {
        List<Double> latencies = new ArrayList<>();
        List<Double> ttfbs = new ArrayList<>();
        TreeSet<Integer> turns = new TreeSet<>();
        for (Map<String, Object> event : events) {
            Map<String, Object> payload = JsonTree.asMap(event.get("payload"));
            String type = String.valueOf(event.get("type"));
            if (FeedbackEvents.LATENCY_MEASURED.equals(type) && payload != null
                    && payload.get("latency_seconds") instanceof Number n) {
                latencies.add(n.doubleValue());
            } else if (FeedbackEvents.TTFB_METRIC.equals(type) && payload != null
                    && payload.get("ttfb_seconds") instanceof Number n) {
                ttfbs.add(n.doubleValue());
            }
            if (said(event)) {
                turns.add(event.get("turn") instanceof Number n ? n.intValue() : 0);
            }
        }
        Map<String, Object> metrics = new LinkedHashMap<>();
        metrics.put("call_duration_seconds", callDurationSeconds);
        metrics.put("num_turns", turns.size());
        metrics.put("avg_latency_seconds", latencies.isEmpty() ? null
                : round(latencies.stream().mapToDouble(Double::doubleValue).average().orElseThrow()));
        metrics.put("avg_ttfb_seconds", ttfbs.isEmpty() ? null
                : round(ttfbs.stream().mapToDouble(Double::doubleValue).average().orElseThrow()));
        metrics.put("max_latency_seconds", latencies.isEmpty() ? null
                : round(latencies.stream().mapToDouble(Double::doubleValue).max().orElseThrow()));
        return metrics;
    }

    /**
     * The reviewer's system prompt: {@code template} with its placeholders ({{node_summary}},
     * {{previous_conversation_summary}}, {{transcript}}, {{metrics}}, or the same in single braces as the reference's
     * editor describes them) filled; the metrics as indented JSON.
     */
    public static String systemPrompt(String template, String nodeSummary, String previousSummary, String transcript,
            Map<String, Object> metrics) {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("node_summary", nodeSummary == null ? "" : nodeSummary);
        values.put("previous_conversation_summary", previousSummary == null ? "" : previousSummary);
        values.put("transcript", transcript);
        values.put("metrics", json(metrics));
        String out = TemplateVariables.render(template, values);
        for (String name : PLACEHOLDERS) {
            out = out.replace("{" + name + "}", String.valueOf(values.get(name)));
        }
        return out;
    }

    /** What a segment's reviewer is told the node was for: its name and its prompt. */
    public static String nodeSummary(Segment segment) {
        return segment.nodePrompt() == null ? segment.nodeName() : segment.nodeName() + ": " + segment.nodePrompt();
    }

    /**
     * A segment's review read from the model's answer: its tags, summary, score (call_quality_score) and
     * overall_sentiment, with the answer as given (raw_response). An answer that is not a JSON object (fenced in
     * markdown is fine) keeps its raw text with empty tags, summary and score.
     */
    public static Map<String, Object> nodeResult(String nodeName, String rawResponse) {
        Map<String, Object> parsed = object(rawResponse);
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("node_name", nodeName);
        result.put("raw_response", rawResponse);
        Object tags = parsed.get("tags");
        result.put("tags", tags instanceof List<?> list ? list : List.of());
        Object summary = parsed.get("summary");
        result.put("summary", summary == null ? "" : summary);
        result.put("score", integral(parsed.get("call_quality_score")));
        result.put("overall_sentiment", parsed.get("overall_sentiment"));
        return result;
    }

    /** A segment whose model failed: the failure said, nothing scored. */
    public static Map<String, Object> failedNode(String nodeName, String error) {
        Map<String, Object> result = new LinkedHashMap<>();
        result.put("node_name", nodeName);
        result.put("error", error);
        result.put("tags", List.of());
        result.put("summary", "");
        result.put("score", null);
        return result;
    }

    /**
     * The run's annotations with one QA node's review set under {@code key} and the top-level {@code tags}
     * recomputed: every tag of every QA review (a tag is a string or {"tag": ...}), sorted, without repeats (left out
     * when there is none). Other annotations are kept.
     */
    public static Map<String, Object> annotated(Map<String, Object> annotations, String key,
            Map<String, Object> review) {
        Map<String, Object> out = new LinkedHashMap<>(annotations == null ? Map.of() : annotations);
        out.put(key, review);
        TreeSet<String> tags = new TreeSet<>();
        out.forEach((k, value) -> {
            Map<String, Object> qa = k.startsWith("qa_") ? JsonTree.asMap(value) : null;
            Map<String, Object> results = qa == null ? null : JsonTree.asMap(qa.get("node_results"));
            if (results != null) {
                results.values().forEach(result -> {
                    Map<String, Object> node = JsonTree.asMap(result);
                    List<?> list = node == null ? null : JsonTree.asList(node.get("tags"));
                    for (Object tag : list == null ? List.of() : list) {
                        String name = tag instanceof String s ? s : JsonTree.asMap(tag) == null ? null
                                : JsonTree.asString(JsonTree.asMap(tag).get("tag"));
                        if (name != null && !name.isBlank()) {
                            tags.add(name);
                        }
                    }
                });
            }
        });
        out.remove("tags");
        if (!tags.isEmpty()) {
            out.put("tags", List.copyOf(tags));
        }
        return out;
    }

    private static boolean said(Map<String, Object> event) {
        Object type = event.get("type");
        return FeedbackEvents.BOT_TEXT.equals(type) || FeedbackEvents.USER_TRANSCRIPTION.equals(type);
    }

    /** The answer's JSON object: the text itself, or what a markdown fence or surrounding words hold; else empty. */
    static Map<String, Object> object(String answer) {
        if (answer == null) {
            return Map.of();
        }
        String text = answer.strip();
        int open = text.indexOf('{');
        int close = text.lastIndexOf('}');
        if (open < 0 || close < open) {
            return Map.of();
        }
        try {
            Map<String, Object> parsed = JsonTree.asMap(JsonText.parse(text.substring(open, close + 1)));
            return parsed == null ? Map.of() : parsed;
        } catch (IllegalArgumentException notJson) {
            return Map.of();
        }
    }

    private static Object integral(Object value) {
        if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) {
            return d.longValue();
        }
        return value;
    }

    private static String text(Object value) {
        return value == null ? "" : String.valueOf(value).strip();
    }

    private static Instant instant(Object value) {
        if (!(value instanceof String s)) {
            return null;
        }
        try {
            return Instant.parse(s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    private static double round(double value) {
        return Math.round(value * 100) / 100.0;
    }

    /** A flat map of numbers and nulls as JSON indented by two spaces (how the reference gives the metrics). */
    static String json(Map<String, Object> values) {
        StringBuilder out = new StringBuilder("{");
        int i = 0;
        for (Map.Entry<String, Object> e : values.entrySet()) {
            Object v = e.getValue();
            String value = v == null ? "null" : v instanceof Number n ? number(n) : "\"" + String.valueOf(v)
                    .replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            out.append(i++ == 0 ? "\n" : ",\n").append("  \"").append(e.getKey()).append("\": ").append(value);
        }
        return out.append(values.isEmpty() ? "}" : "\n}").toString();
    }

    private static String number(Number n) {
        return n instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15 ? d.longValue() + ".0" : n.toString();
    }
}
