package dev.voiceagent.application.trace;

import dev.voiceagent.domain.conversation.AgentEngine;
import dev.voiceagent.domain.conversation.TurnEvent;
import dev.voiceagent.domain.shared.JsonText;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The model's part of an agent's turn as a span ({@code llm}, a generation to Langfuse): from when it was asked to
 * its finished answer, with its model, the node whose prompt it answered, its tokens, its time to first token when
 * measured, and each tool it called, with the arguments and the result, as events.
 */
public final class ModelSpans {

    private ModelSpans() {
    }

    /** @param firstText when its first words came (null: not measured) */
    public static TraceSpan of(AgentEngine.TurnResult result, String model, Instant asked, Instant firstText,
            Instant done) {
        TraceSpan.Builder llm = new TraceSpan.Builder("llm", asked)
                .attribute("gen_ai.operation.name", "chat")
                .attribute("gen_ai.request.model", model)
                .attribute("langfuse.observation.type", "generation")
                .attribute("voiceagent.node.id", result.state() == null ? null : result.state().currentNodeId())
                .attribute("voiceagent.llm.model_calls", result.modelCalls())
                .attribute("gen_ai.completion", result.assistantText());
        if (firstText != null && !firstText.isBefore(asked)) {
            llm.attribute("voiceagent.llm.time_to_first_token_ms", Duration.between(asked, firstText).toMillis());
        }
        if (result.usage() != null) {
            llm.attribute("gen_ai.usage.input_tokens", result.usage().promptTokens())
                    .attribute("gen_ai.usage.output_tokens", result.usage().completionTokens());
        }
        for (TurnEvent e : result.events()) {
            Map<String, Object> p = e.payload();
            switch (e.type()) {
                case TurnEvent.TOOL_CALL_STARTED -> llm.event("tool_call", done, attributes("voiceagent.tool.name",
                        p.get("function_name"), "voiceagent.tool.call_id", p.get("tool_call_id"),
                        "voiceagent.tool.arguments", json(p.get("arguments"))));
                case TurnEvent.TOOL_CALL_RESULT -> llm.event("tool_result", done, attributes("voiceagent.tool.name",
                        p.get("function_name"), "voiceagent.tool.call_id", p.get("tool_call_id"),
                        "voiceagent.tool.result", json(p.get("result"))));
                case TurnEvent.NODE_TRANSITION -> llm.event("transition", done, attributes("voiceagent.node.from",
                        p.get("previous_node_id"), "voiceagent.node.to", p.get("node_id"), "voiceagent.transition",
                        p.get("transition")));
                default -> {
                    // extractions and the session's end are the run's
                }
            }
        }
        return llm.end(done);
    }

    /** A tool's arguments or result as the model saw it: a structure as JSON text. */
    private static Object json(Object value) {
        return value instanceof Map<?, ?> || value instanceof List<?> ? JsonText.write(value) : value;
    }

    /** Attributes from key, value pairs: a null value left out, anything but a number or boolean as its text. */
    public static Map<String, Object> attributes(Object... keysAndValues) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            Object value = keysAndValues[i + 1];
            if (value != null) {
                out.put((String) keysAndValues[i], value instanceof Number || value instanceof Boolean ? value
                        : String.valueOf(value));
            }
        }
        return out;
    }
}
