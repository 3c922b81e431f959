package dev.voiceagent.domain.conversation;

import dev.voiceagent.domain.shared.DomainRuleViolation;
import dev.voiceagent.domain.shared.JsonText;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.NodeTypes;
import dev.voiceagent.domain.workflow.TemplateVariables;
import dev.voiceagent.domain.workflow.WorkflowDefinition.Edge;
import dev.voiceagent.domain.workflow.WorkflowDefinition.Node;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Runs a workflow definition as a conversation, one turn at a time, without knowing any model: it says
 * what to ask the model ({@link Step.AskModel}), which tool to run ({@link Step.RunTool}), and applies
 * what comes back. The current node's system prompt is the global node's prompt (unless the node opts
 * out) followed by the node's own, with {{variables}} filled from the initial and gathered context. The
 * node's outgoing edges are offered as functions (named from the edge label, described by its
 * condition) with the node's tools and, when the node extracts variables, an extraction function. A
 * transition moves to the edge's target (saying its transition speech), an endCall node ends the
 * conversation once it has spoken, and a turn asks the model at most {@code maxModelCalls} times.
 */
public final class AgentEngine {

    /** The function through which a node's extraction variables are recorded. */
    public static final String EXTRACT_FUNCTION = "extract_variables";
    public static final int DEFAULT_MAX_MODEL_CALLS = 6;
    public static final String END_CALL_NODE = "end_call_node";

    private final Map<String, Node> nodes = new LinkedHashMap<>();
    private final Map<String, List<Edge>> outgoing = new LinkedHashMap<>();
    private final Node start;
    private final Node global;
    private final Map<String, Object> initialContext;
    private final Function<Node, List<FunctionSpec>> nodeTools;
    private final int maxUserTurns;
    private final int maxModelCalls;

    /**
     * @param nodeTools the tools a node offers (its tool_uuids resolved by the caller); none by default
     * @param maxUserTurns how many user messages a conversation takes; 0 for no limit
     */
    public AgentEngine(WorkflowDefinition definition, Map<String, Object> initialContext,
            Function<Node, List<FunctionSpec>> nodeTools, int maxUserTurns, int maxModelCalls) {
        Node first = null;
        Node globalNode = null;
        for (Node node : definition.nodes()) {
            if (node.id() == null) {
                continue;
            }
            nodes.put(node.id(), node);
            if (NodeTypes.START_CALL.equals(node.type()) && first == null) {
                first = node;
            } else if (NodeTypes.GLOBAL_NODE.equals(node.type())) {
                globalNode = node;
            }
        }
        for (Edge edge : definition.edges()) {
            if (edge.source() != null && nodes.containsKey(edge.target()) && edge.label() != null
                    && !edge.label().isBlank()) {
                outgoing.computeIfAbsent(edge.source(), k -> new ArrayList<>()).add(edge);
            }
        }
        if (first == null) {
            throw new DomainRuleViolation("The agent has no Start Call node");
        }
        this.start = first;
        this.global = globalNode;
        this.initialContext = initialContext == null ? Map.of() : Map.copyOf(withoutNulls(initialContext));
        this.nodeTools = nodeTools == null ? n -> List.of() : nodeTools;
        this.maxUserTurns = maxUserTurns;
        this.maxModelCalls = maxModelCalls;
    }

    public AgentEngine(WorkflowDefinition definition, Map<String, Object> initialContext) {
        this(definition, initialContext, null, 0, DEFAULT_MAX_MODEL_CALLS);
    }

    private static Map<String, Object> withoutNulls(Map<String, Object> map) {
        Map<String, Object> out = new LinkedHashMap<>();
        map.forEach((k, v) -> {
            if (k != null && v != null) {
                out.put(k, v);
            }
        });
        return out;
    }

    /** A conversation that has not started: at the Start Call node, nothing said. */
    public ConversationState initialState() {
        return new ConversationState(start.id(), List.of(), Map.of(), 0, false, null);
    }

    /**
     * The opening turn: the Start Call's greeting when it has a text one (or the call's text greeting_override), else
     * the model speaks first.
     */
    public Turn open(ConversationState state) {
        Turn turn = new Turn(state);
        Node node = turn.node();
        boolean start = NodeTypes.START_CALL.equals(node.type());
        String override = start ? override("text", "text") : null;
        String greeting = override != null ? override
                : start && !"audio".equals(text(node, "greeting_type")) && override("audio", "recording_id") == null
                ? text(node, "greeting") : null;
        if (greeting != null && !greeting.isBlank()) {
            String said = render(greeting, turn.gathered);
            turn.outputs.add(said);
            turn.messages.add(ChatMessage.assistant(said, List.of()));
        } else {
            turn.needsModel = true;
        }
        return turn;
    }

    /**
     * The start node's pre-recorded greeting (greeting_type audio with a greeting_recording_id): the recording a voice
     * call plays instead of synthesizing a greeting; empty otherwise.
     */
    public Optional<String> greetingRecording() {
        if (!NodeTypes.START_CALL.equals(start.type()) || override("text", "text") != null) {
            return Optional.empty();
        }
        String overridden = override("audio", "recording_id");
        if (overridden != null) {
            return Optional.of(overridden);
        }
        String recording = text(start, "greeting_recording_id");
        return "audio".equals(text(start, "greeting_type")) && recording != null && !recording.isBlank()
                ? Optional.of(recording.strip()) : Optional.empty();
    }

    /**
     * The call's greeting_override (initial context; a campaign contact's greeting_override_* columns, a public
     * trigger's body): {type: text, text} or {type: audio, recording_id}. A valid one of {@code type} takes
     * precedence over the saved Start-node greeting: its {@code field}, stripped; null otherwise.
     */
    private String override(String type, String field) {
        if (!(initialContext.get("greeting_override") instanceof Map<?, ?> override)
                || !type.equals(override.get("type")) || !(override.get(field) instanceof String value)
                || value.isBlank()) {
            return null;
        }
        return value.strip();
    }

    /**
     * The opening turn when the greeting was played from its recording: what it says ({@code transcript}) is the
     * assistant's first message; nothing is left to say or to ask.
     */
    public Turn openRecorded(ConversationState state, String transcript) {
        Turn turn = new Turn(state);
        turn.messages.add(ChatMessage.assistant(transcript, List.of()));
        return turn;
    }

    /** A turn started by what the user said. */
    public Turn reply(ConversationState state, String userText) {
        if (state.ended()) {
            throw new DomainRuleViolation("The conversation has ended");
        }
        if (maxUserTurns > 0 && state.userTurns() >= maxUserTurns) {
            throw new TurnLimitReached(maxUserTurns);
        }
        Turn turn = new Turn(state);
        turn.userTurns++;
        turn.messages.add(ChatMessage.user(userText));
        turn.needsModel = true;
        return turn;
    }

    /** The node, or the start when the id names none (a definition edited since the checkpoint). */
    private Node nodeOr(String id) {
        Node node = id == null ? null : nodes.get(id);
        return node != null ? node : start;
    }

    /** The system prompt of a node: the global prompt (unless the node opts out), then the node's own. */
    public String systemPrompt(String nodeId, Map<String, Object> gathered) {
        Node node = nodeOr(nodeId);
        StringBuilder prompt = new StringBuilder();
        if (global != null && !Boolean.FALSE.equals(node.data() == null ? null : node.data().get("add_global_prompt"))) {
            String globalPrompt = text(global, "prompt");
            if (globalPrompt != null && !globalPrompt.isBlank()) {
                prompt.append(globalPrompt.strip());
            }
        }
        String own = text(node, "prompt");
        if (own != null && !own.isBlank()) {
            if (!prompt.isEmpty()) {
                prompt.append("\n\n");
            }
            prompt.append(own.strip());
        }
        return render(prompt.toString(), gathered);
    }

    /** Whether the caller may interrupt the agent at a node (its allow_interrupt; false when unset). */
    public boolean interruptible(String nodeId) {
        Node node = nodeOr(nodeId);
        return node.data() != null && Boolean.TRUE.equals(node.data().get("allow_interrupt"));
    }

    /** The functions a node offers: its transitions, its extraction function, its tools. */
    public List<FunctionSpec> functions(String nodeId) {
        Node node = nodeOr(nodeId);
        List<FunctionSpec> functions = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (Edge edge : outgoing.getOrDefault(node.id(), List.of())) {
            String name = WorkflowDefinition.transitionToolName(edge.label());
            if (names.add(name)) {
                String condition = JsonTree.asString(edge.data().get("condition"));
                functions.add(new FunctionSpec(name, condition == null || condition.isBlank()
                        ? "Move the conversation to " + nodeName(nodeOr(edge.target())) : condition,
                        FunctionSpec.NO_PARAMETERS, FunctionSpec.Kind.TRANSITION));
            }
        }
        List<Map<String, Object>> variables = extractionVariables(node);
        if (!variables.isEmpty() && names.add(EXTRACT_FUNCTION)) {
            Map<String, Object> properties = new LinkedHashMap<>();
            for (Map<String, Object> v : variables) {
                Map<String, Object> property = new LinkedHashMap<>();
                property.put("type", jsonType(JsonTree.asString(v.get("type"))));
                String prompt = JsonTree.asString(v.get("prompt"));
                if (prompt != null && !prompt.isBlank()) {
                    property.put("description", prompt);
                }
                properties.put(JsonTree.asString(v.get("name")), property);
            }
            String instructions = text(node, "extraction_prompt");
            functions.add(new FunctionSpec(EXTRACT_FUNCTION, instructions == null || instructions.isBlank()
                    ? "Record the values the user has given so far" : instructions,
                    FunctionSpec.objectSchema(properties), FunctionSpec.Kind.EXTRACTION));
        }
        for (FunctionSpec tool : nodeTools.apply(node)) {
            if (names.add(tool.name())) {
                functions.add(tool);
            }
        }
        return functions;
    }

    private static List<Map<String, Object>> extractionVariables(Node node) {
        if (node.data() == null || !Boolean.TRUE.equals(node.data().get("extraction_enabled"))) {
            return List.of();
        }
        List<Map<String, Object>> out = new ArrayList<>();
        List<?> raw = JsonTree.asList(node.data().get("extraction_variables"));
        if (raw != null) {
            for (Object o : raw) {
                Map<String, Object> v = JsonTree.asMap(o);
                if (v != null && v.get("name") instanceof String name && !name.isBlank()) {
                    out.add(v);
                }
            }
        }
        return out;
    }

    private static String jsonType(String declared) {
        return switch (declared == null ? "string" : declared) {
            case "number" -> "number";
            case "boolean" -> "boolean";
            default -> "string";
        };
    }

    private String render(String text, Map<String, Object> gathered) {
        Map<String, Object> values = new LinkedHashMap<>(initialContext);
        values.putAll(gathered);
        return TemplateVariables.speak(text, values);
    }

    private static String text(Node node, String field) {
        return node.data() == null ? null : JsonTree.asString(node.data().get(field));
    }

    private static String nodeName(Node node) {
        String name = text(node, "name");
        return name == null || name.isBlank() ? node.id() : name;
    }

    /** What to do next in a turn. */
    public sealed interface Step {

        record AskModel(ModelRequest request) implements Step {
        }

        record RunTool(ToolCall call, FunctionSpec function) implements Step {
        }

        record Finished(TurnResult result) implements Step {
        }
    }

    /** A finished turn: the state after it, what the assistant said, what happened, the tokens used. */
    public record TurnResult(ConversationState state, String assistantText, List<TurnEvent> events, TokenUsage usage,
            int modelCalls) {

        public TurnResult {
            events = List.copyOf(events);
        }
    }

    /** One turn in progress. Not thread-safe: a turn belongs to the request that runs it. */
    /** A recording a turn plays, before its output number {@code at}. */
    public record Recorded(int at, String recordingId) {
    }

    public final class Turn {

        private String currentNodeId;
        private final List<ChatMessage> messages;
        private final Map<String, Object> gathered;
        private int userTurns;
        private boolean ended;
        private String endReason;
        private final List<String> outputs = new ArrayList<>();
        private final List<Recorded> recordings = new ArrayList<>();
        private final List<TurnEvent> events = new ArrayList<>();
        private final Deque<ToolCall> pendingTools = new ArrayDeque<>();
        private final Map<String, FunctionSpec> offered = new LinkedHashMap<>();
        private TokenUsage usage = TokenUsage.ZERO;
        private int modelCalls;
        private boolean needsModel;

        private Turn(ConversationState state) {
            this.currentNodeId = nodeOr(state.currentNodeId()).id();
            this.messages = new ArrayList<>(state.messages());
            this.gathered = new LinkedHashMap<>(state.gathered());
            this.userTurns = state.userTurns();
            this.ended = state.ended();
            this.endReason = state.endReason();
        }

        private Node node() {
            return nodeOr(currentNodeId);
        }

        /** The node the conversation is at. */
        public Node currentNode() {
            return node();
        }

        /** Whether the caller may interrupt the agent at the current node (its allow_interrupt; false when unset). */
        public boolean interruptible() {
            return AgentEngine.this.interruptible(currentNodeId);
        }

        /**
         * What the assistant says in this turn so far, in order: the greeting, each model reply's text, a tool's
         * last words. A voice session speaks the ones it did not stream itself.
         */
        public List<String> outputs() {
            return List.copyOf(outputs);
        }

        /**
         * The recordings this turn plays (a transition's speech of type audio), each before the output at its index
         * (at the end when the index is the outputs' size). Text chat has nothing to play them with.
         */
        public List<Recorded> recordings() {
            return List.copyOf(recordings);
        }

        public Step next() {
            if (!pendingTools.isEmpty()) {
                ToolCall call = pendingTools.peek();
                return new Step.RunTool(call, offered.get(call.name()));
            }
            if (needsModel && !ended) {
                if (modelCalls >= maxModelCalls) {
                    needsModel = false;
                    events.add(new TurnEvent(TurnEvent.MODEL_CALL_LIMIT, Map.of("model_calls", modelCalls)));
                } else {
                    return new Step.AskModel(request());
                }
            }
            return new Step.Finished(result());
        }

        private ModelRequest request() {
            List<FunctionSpec> functions = functions(currentNodeId);
            offered.clear();
            functions.forEach(f -> offered.put(f.name(), f));
            List<ChatMessage> all = new ArrayList<>();
            all.add(ChatMessage.system(systemPrompt(currentNodeId, gathered)));
            all.addAll(ContextCompaction.visible(messages)); // from the last summary on, when there is one
            return new ModelRequest(all, functions);
        }

        /** Applies the model's answer to the request {@link #next()} made. */
        public void accept(ModelReply reply) {
            Objects.requireNonNull(reply, "reply");
            modelCalls++;
            usage = usage.plus(reply.usage());
            needsModel = false;
            String said = reply.text() == null ? null : reply.text().strip();
            if (said != null && !said.isEmpty()) {
                outputs.add(said);
            }
            messages.add(ChatMessage.assistant(said == null || said.isEmpty() ? null : said, reply.toolCalls()));
            boolean moved = false;
            for (ToolCall call : reply.toolCalls()) {
                Map<String, Object> started = new LinkedHashMap<>();
                started.put("function_name", call.name());
                started.put("tool_call_id", call.id());
                started.put("arguments", call.arguments());
                events.add(new TurnEvent(TurnEvent.TOOL_CALL_STARTED, started));
                FunctionSpec function = offered.get(call.name());
                needsModel = true;
                if (function == null) {
                    answer(call, "Unknown function: " + call.name());
                } else if (function.kind() == FunctionSpec.Kind.TRANSITION) {
                    if (moved) {
                        answer(call, "Not done: the conversation already moved in this reply");
                    } else {
                        moved = true;
                        transition(call);
                    }
                } else if (function.kind() == FunctionSpec.Kind.EXTRACTION) {
                    extract(call);
                } else {
                    pendingTools.add(call);
                }
            }
            if (reply.toolCalls().isEmpty() && NodeTypes.END_CALL.equals(node().type())) {
                end(END_CALL_NODE);
            }
        }

        /** The result of the tool {@link #next()} asked to run (a JSON-shaped value or text). */
        public void acceptToolResult(String toolCallId, Object result) {
            ToolCall call = pendingTools.stream().filter(c -> c.id().equals(toolCallId)).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no pending tool call " + toolCallId));
            pendingTools.remove(call);
            answer(call, result);
        }

        /**
         * The result of a tool that ends the conversation (end_call) or hands it off (transfer_call): what the
         * assistant says last, if anything, and the session's end with its reason and details.
         */
        public void acceptToolEnd(String toolCallId, Object result, String spoken, String reason,
                Map<String, Object> details) {
            acceptToolResult(toolCallId, result);
            if (spoken != null && !spoken.isBlank()) {
                outputs.add(render(spoken, gathered));
            }
            pendingTools.clear();
            ended = true;
            endReason = reason;
            needsModel = false;
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("reason", reason);
            if (details != null) {
                payload.putAll(details);
            }
            events.add(new TurnEvent(TurnEvent.SESSION_END, payload));
        }

        /**
         * The values a tool's preset parameters resolve from: {initial_context: ..., gathered_context: ...}, and
         * the initial values at the top as well.
         */
        public Map<String, Object> toolContext() {
            Map<String, Object> context = new LinkedHashMap<>(initialContext);
            context.put("initial_context", initialContext);
            context.put("gathered_context", Map.copyOf(withoutNulls(gathered)));
            return context;
        }

        private void answer(ToolCall call, Object result) {
            String content = result instanceof String s ? s : String.valueOf(JsonText.write(result));
            messages.add(ChatMessage.tool(call.id(), content));
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("function_name", call.name());
            payload.put("tool_call_id", call.id());
            payload.put("result", result);
            events.add(new TurnEvent(TurnEvent.TOOL_CALL_RESULT, payload));
        }

        private void transition(ToolCall call) {
            Node from = node();
            Edge edge = outgoing.getOrDefault(from.id(), List.of()).stream()
                    .filter(e -> WorkflowDefinition.transitionToolName(e.label()).equals(call.name()))
                    .findFirst().orElseThrow();
            Node to = nodeOr(edge.target());
            currentNodeId = to.id();
            answer(call, "Moved to " + nodeName(to));
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("node_id", to.id());
            payload.put("node_name", nodeName(to));
            payload.put("previous_node_id", from.id());
            payload.put("previous_node_name", nodeName(from));
            payload.put("edge_id", edge.id());
            payload.put("transition", edge.label());
            payload.put("allow_interrupt", Boolean.TRUE.equals(to.data() == null ? null : to.data().get("allow_interrupt")));
            events.add(new TurnEvent(TurnEvent.NODE_TRANSITION, payload));
            String speech = JsonTree.asString(edge.data().get("transition_speech"));
            String recording = JsonTree.asString(edge.data().get("transition_speech_recording_id"));
            if ("audio".equals(edge.data().get("transition_speech_type"))) {
                if (recording != null && !recording.isBlank()) {
                    recordings.add(new Recorded(outputs.size(), recording.strip()));
                }
            } else if (speech != null && !speech.isBlank()) {
                outputs.add(render(speech, gathered));
            }
        }

        private void extract(ToolCall call) {
            Node node = node();
            Map<String, Object> values = new LinkedHashMap<>();
            for (Map<String, Object> variable : extractionVariables(node)) {
                String name = JsonTree.asString(variable.get("name"));
                Object raw = call.arguments().get(name);
                Object value = coerce(raw, JsonTree.asString(variable.get("type")));
                if (value != null) {
                    values.put(name, value);
                }
            }
            gathered.putAll(values);
            Map<String, Object> payload = new LinkedHashMap<>();
            payload.put("node_id", node.id());
            payload.put("values", values);
            events.add(new TurnEvent(TurnEvent.VARIABLES_EXTRACTED, payload));
            answer(call, values.isEmpty() ? "Nothing recorded" : "Recorded");
        }

        private void end(String reason) {
            ended = true;
            endReason = reason;
            needsModel = false;
            events.add(new TurnEvent(TurnEvent.SESSION_END, Map.of("reason", reason)));
        }

        private TurnResult result() {
            ConversationState state = new ConversationState(currentNodeId, messages, gathered, userTurns, ended,
                    endReason);
            return new TurnResult(state, outputs.isEmpty() ? null : String.join("\n\n", outputs), events, usage,
                    modelCalls);
        }
    }

    /** A value as the variable's declared type: number, boolean or text; null when it cannot be one. */
    static Object coerce(Object raw, String type) {
        if (raw == null) {
            return null;
        }
        switch (type == null ? "string" : type) {
            case "number" -> {
                if (raw instanceof Number n) {
                    return n;
                }
                try {
                    double d = Double.parseDouble(String.valueOf(raw).strip().replace(",", ""));
                    return d == Math.rint(d) && Math.abs(d) < 1e15 ? (Object) (long) d : (Object) d;
                } catch (NumberFormatException e) {
                    return null;
                }
            }
            case "boolean" -> {
                if (raw instanceof Boolean b) {
                    return b;
                }
                String s = String.valueOf(raw).strip().toLowerCase(Locale.ROOT);
                return switch (s) {
                    case "true", "yes", "y", "1" -> Boolean.TRUE;
                    case "false", "no", "n", "0" -> Boolean.FALSE;
                    default -> null;
                };
            }
            default -> {
                String s = raw instanceof String str ? str.strip() : String.valueOf(raw);
                return s.isEmpty() ? null : s;
            }
        }
    }
}
