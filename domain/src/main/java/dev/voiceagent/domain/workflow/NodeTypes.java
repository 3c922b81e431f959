package dev.voiceagent.domain.workflow;

import static dev.voiceagent.domain.workflow.PropertySpec.Type.BOOLEAN;
import static dev.voiceagent.domain.workflow.PropertySpec.Type.CREDENTIAL_REF;
import static dev.voiceagent.domain.workflow.PropertySpec.Type.DOCUMENT_REFS;
import static dev.voiceagent.domain.workflow.PropertySpec.Type.FIXED_COLLECTION;
import static dev.voiceagent.domain.workflow.PropertySpec.Type.JSON;
import static dev.voiceagent.domain.workflow.PropertySpec.Type.MENTION_TEXTAREA;
import static dev.voiceagent.domain.workflow.PropertySpec.Type.NUMBER;
import static dev.voiceagent.domain.workflow.PropertySpec.Type.OPTIONS;
import static dev.voiceagent.domain.workflow.PropertySpec.Type.RECORDING_REF;
import static dev.voiceagent.domain.workflow.PropertySpec.Type.STRING;
import static dev.voiceagent.domain.workflow.PropertySpec.Type.TOOL_REFS;
import static dev.voiceagent.domain.workflow.PropertySpec.Type.URL;
import static dev.voiceagent.domain.workflow.PropertySpec.of;

import dev.voiceagent.domain.workflow.NodeTypeSpec.Category;
import dev.voiceagent.domain.workflow.NodeTypeSpec.Example;
import dev.voiceagent.domain.workflow.NodeTypeSpec.GraphConstraints;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The registry of node types: the one source of truth that both the validator and the
 * GET /node-types operation read.
 */
public final class NodeTypes {

    public static final String SPEC_VERSION = "1.0.0";
    public static final String START_CALL = "startCall";
    public static final String AGENT_NODE = "agentNode";
    public static final String END_CALL = "endCall";
    public static final String GLOBAL_NODE = "globalNode";
    public static final String TRIGGER = "trigger";
    public static final String WEBHOOK = "webhook";
    public static final String QA = "qa";

    /** The reference's reviewer prompt: the QA node's default (what a node without a prompt of its own uses). */
    public static final String QA_SYSTEM_PROMPT = """
            You are a QA analyst evaluating a specific segment of a voice AI conversation.

            ## Node Purpose
            {{node_summary}}

            ## Previous Conversation Context (For start of conversation, previous conversation summary can be empty.)
            {{previous_conversation_summary}}

            ## Tags to evaluate

            Examine the conversation carefully and identify which of the following tags apply:

            - UNCLEAR_CONVERSATION - The conversation is not coherent or clear, messages don't connect logically
            - ASSISTANT_IN_LOOP - The assistant asks the same question multiple times or gets stuck repeating itself
            - ASSISTANT_REPLY_IMPROPER - The assistant did not reply properly to the user's question/query or seems \
            confused by what the user said
            - USER_FRUSTRATED - The user seems angry, frustrated, or is complaining about something in the call
            - USER_NOT_UNDERSTANDING - The user explicitly says they don't understand or repeatedly asks for clarification
            - HEARING_ISSUES - Either party can't hear the other ("hello?", "are you there?", "can you hear me?")
            - DEAD_AIR - Unusually long silences in the conversation (use the timestamps to judge)
            - USER_REQUESTING_FEATURE - The user asks for something the assistant can't fulfill
            - ASSISTANT_LACKS_EMPATHY - The assistant ignores the user's personal situation or emotional state and \
            continues pitching or pushing the agenda.
            - USER_DETECTS_AI - The user suspects or identifies that they are talking to an AI/robot/bot rather than a \
            real human.

            ## Call metrics (pre-computed)

            Use these alongside the transcript for your analysis:
            {{metrics}}

            ## Output format

            Return ONLY a valid JSON object (no markdown):
            {
                "tags": [
                    {
                        "tag": "TAG_NAME",
                        "reason": "Short reason with evidence from the transcript"
                    }
                ],
                "overall_sentiment": "positive|neutral|negative",
                "call_quality_score": <1-10>,
                "summary": "1-2 sentence summary of this segment"
            }

            If no tags apply, return an empty tags list. Always provide sentiment, score, and summary.""";

    /** letters, digits, _ and -, at most 36 characters (a UUID fits). */
    public static final String TRIGGER_PATH_PATTERN = "^[A-Za-z0-9_-]{1,36}$";

    private static final List<NodeTypeSpec> ALL = List.of(startCall(), agentNode(), endCall(), globalNode(), trigger(),
            webhook(), qa());

    private NodeTypes() {
    }

    public static List<NodeTypeSpec> all() {
        return ALL;
    }

    public static Optional<NodeTypeSpec> byName(String name) {
        return ALL.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    private static PropertySpec name() {
        return of("name", STRING, "Name", "A short name for this node, shown in the editor and in logs.").mandatory();
    }

    private static List<PropertySpec> conversational(String promptDescription) {
        return List.of(
                name(),
                of("prompt", MENTION_TEXTAREA, "Prompt", promptDescription).mandatory()
                        .placeholder("Greet the caller warmly and ask how you can help today.")
                        .hint("The system prompt of this step; {{variable}} takes a value of the call's context"),
                of("allow_interrupt", BOOLEAN, "Allow interruption", "Whether the caller may interrupt the agent.")
                        .withDefault(false),
                of("add_global_prompt", BOOLEAN, "Add global prompt", "Prepend the Global Node's prompt to this one.")
                        .withDefault(true),
                of("extraction_enabled", BOOLEAN, "Extract variables", "Extract variables from the conversation here.")
                        .withDefault(false),
                of("extraction_prompt", MENTION_TEXTAREA, "Extraction prompt", "How to extract the variables.")
                        .textarea().shownWhen("extraction_enabled", true),
                of("extraction_variables", FIXED_COLLECTION, "Extraction variables", "The variables to extract.")
                        .shownWhen("extraction_enabled", true)
                        .hint("A list of {name (snake_case), type: string|number|boolean, prompt}")
                        .nested(of("name", STRING, "Name", "Variable name.").mandatory(),
                                of("type", OPTIONS, "Type", "Value type.").options("string", "number", "boolean")
                                        .withDefault("string"),
                                of("prompt", STRING, "Prompt", "How to find the value.").textarea()),
                of("tool_uuids", TOOL_REFS, "Tools", "Tools the agent may call in this node.")
                        .hint("UUIDs of the organization's tools (GET /api/v1/tools/)"),
                of("document_uuids", DOCUMENT_REFS, "Documents", "Knowledge-base documents available in this node.")
                        .hint("UUIDs of the organization's knowledge-base documents"));
    }

    private static List<PropertySpec> concat(List<PropertySpec> first, PropertySpec... more) {
        List<PropertySpec> all = new ArrayList<>(first);
        all.addAll(List.of(more));
        return all;
    }

    private static NodeTypeSpec startCall() {
        return new NodeTypeSpec(START_CALL, "Start Call", "Where every call begins: greets the caller and sets the goal.",
                Category.CALL_NODE, "phone-incoming", "1.0.0",
                concat(conversational("What the agent does at the start of the call."),
                        of("greeting", MENTION_TEXTAREA, "Greeting", "The first thing the agent says; may use {{variables}}.")
                                .shownWhen("greeting_type", "text").placeholder("Hi {{first_name}}, this is Sarah from Acme."),
                        of("greeting_type", OPTIONS, "Greeting type", "Spoken text or a recording.")
                                .options("text", "audio").withDefault("text"),
                        of("greeting_recording_id", RECORDING_REF, "Greeting recording", "Recording played as greeting.")
                                .shownWhen("greeting_type", "audio"),
                        of("delayed_start", BOOLEAN, "Delayed start", "Wait before speaking.").withDefault(false),
                        of("delayed_start_duration", NUMBER, "Delay (s)", "Seconds to wait before speaking.")
                                .range(0.1, 10).withDefault(2.0).shownWhen("delayed_start", true),
                        of("pre_call_fetch_mode", OPTIONS, "Pre-call fetch", "When to fetch context before the call.")
                                .options("disabled", "always", "inbound", "outbound").withDefault("disabled"),
                        of("pre_call_fetch_url", URL, "Pre-call fetch URL", "Endpoint that returns extra context.")
                                .shownWhen("pre_call_fetch_mode", "always", "inbound", "outbound")
                                .placeholder("https://api.example.com/customer-lookup"),
                        of("pre_call_fetch_credential_uuid", CREDENTIAL_REF, "Pre-call fetch credential",
                                "Credential sent to the pre-call endpoint.")
                                .shownWhen("pre_call_fetch_mode", "always", "inbound", "outbound"),
                        of("mcp_tool_filters", JSON, "MCP tool filters", "Per MCP tool, the tool names allowed.")
                                .hint("An object: MCP tool UUID -> list of the tool names this node may use")),
                new GraphConstraints(null, 0, null, null, 1, 1),
                List.of(new Example("Appointment reminder", null, Map.of("name", "Start",
                        "prompt", "Remind {{first_name}} of the appointment on {{appointment_date}}.",
                        "greeting", "Hi {{first_name}}, this is Acme Dental calling."))),
                "Exactly one per workflow, with no incoming edge: the first thing the agent says (greeting) and does (prompt). Give it at least one outgoing edge; its label becomes the function the model calls to move on.");
    }

    private static NodeTypeSpec agentNode() {
        return new NodeTypeSpec(AGENT_NODE, "Agent Node", "A step of the conversation with its own instructions.",
                Category.CALL_NODE, "bot", "1.0.0", conversational("What the agent does in this step."),
                new GraphConstraints(1, null, null, null, null, null),
                List.of(new Example("Qualify", null, Map.of("name", "Qualify", "prompt", "Ask about budget and timeline."))),
                "A step of the conversation. Needs an incoming edge; each outgoing edge is a transition the model can choose, named by its label and described by its condition.");
    }

    private static NodeTypeSpec endCall() {
        return new NodeTypeSpec(END_CALL, "End Call", "Closes the conversation and hangs up.", Category.CALL_NODE,
                "phone-off", "1.0.0", conversational("How the agent closes the call."),
                new GraphConstraints(1, null, null, 0, null, null),
                List.of(new Example("Goodbye", null, Map.of("name", "End", "prompt", "Thank the caller and say goodbye."))),
                "Where the call ends: the agent says its closing prompt and hangs up. Needs an incoming edge and has no outgoing edge.");
    }

    private static NodeTypeSpec globalNode() {
        return new NodeTypeSpec(GLOBAL_NODE, "Global Node", "Instructions added to every node's prompt.",
                Category.GLOBAL_NODE, "globe", "1.0.0",
                List.of(name(),
                        of("prompt", MENTION_TEXTAREA, "Prompt", "Persona and rules that apply to the whole call.").mandatory(),
                        of("allow_interrupt", BOOLEAN, "Allow interruption", "Whether the caller may interrupt.")
                                .withDefault(false),
                        of("add_global_prompt", BOOLEAN, "Add global prompt", "Unused on the Global Node itself.")
                                .withDefault(true)),
                new GraphConstraints(null, 0, null, 0, null, 1),
                List.of(new Example("Persona", null, Map.of("name", "Global", "prompt", "You are a friendly assistant."))),
                "At most one, with no edges: its prompt is prepended to every node whose add_global_prompt is true (persona, tone, rules for the whole call).");
    }

    private static NodeTypeSpec trigger() {
        return new NodeTypeSpec(TRIGGER, "API Trigger", "Starts this workflow from an HTTP call to its trigger path.",
                Category.TRIGGER, "webhook", "1.0.0",
                List.of(name(),
                        of("trigger_path", STRING, "Trigger path",
                                "Letters, digits, _ and - (at most 36); left empty, a unique one is generated.")
                                .text(36, TRIGGER_PATH_PATTERN),
                        of("enabled", BOOLEAN, "Enabled", "Whether the trigger accepts calls.").withDefault(true)),
                new GraphConstraints(null, 0, null, null, null, 1),
                List.of(new Example("Trigger", null, Map.of("name", "API", "trigger_path", "new-lead"))),
                "At most one, with no incoming edge: lets an HTTP call start this workflow at its trigger_path (left empty, a unique one is generated).");
    }

    private static NodeTypeSpec webhook() {
        return new NodeTypeSpec(WEBHOOK, "Webhook", "Sends the call's results to an HTTP endpoint when the call ends.",
                Category.INTEGRATION, "send", "1.0.0",
                List.of(name(),
                        of("enabled", BOOLEAN, "Enabled", "Whether the webhook is sent.").withDefault(true),
                        of("http_method", OPTIONS, "HTTP method", "Method of the request.")
                                .options("GET", "POST", "PUT", "PATCH", "DELETE").withDefault("POST"),
                        of("endpoint_url", URL, "Endpoint URL", "Where to send the request.")
                                .placeholder("https://api.example.com/webhook"),
                        of("credential_uuid", CREDENTIAL_REF, "Credential", "Credential used to authenticate."),
                        of("custom_headers", FIXED_COLLECTION, "Custom headers", "Extra request headers.")
                                .nested(of("key", STRING, "Header", "Header name.").mandatory(),
                                        of("value", STRING, "Value", "Header value.")),
                        of("payload_template", JSON, "Payload template", "JSON body; may use {{variables}}.")
                                .hint("A JSON object whose strings may use {{workflow_run_id}}, {{gathered_context.x}}")),
                new GraphConstraints(null, 0, null, 0, null, null),
                List.of(new Example("CRM", null, Map.of("name", "CRM", "endpoint_url", "https://crm.example.com/calls"))),
                "No edges: runs after the call ends and sends the run's results (gathered context, disposition) to endpoint_url with the payload_template.");
    }

    private static NodeTypeSpec qa() {
        return new NodeTypeSpec(QA, "QA Analysis", "Scores finished calls with a language model.", Category.INTEGRATION,
                "clipboard-check", "1.0.0",
                List.of(name(),
                        of("qa_enabled", BOOLEAN, "Enabled", "Whether calls are analysed.").withDefault(true),
                        of("qa_use_workflow_llm", BOOLEAN, "Use workflow model", "Use the workflow's model.").withDefault(true),
                        of("qa_provider", STRING, "Provider", "Model provider when not using the workflow's.")
                                .shownWhen("qa_use_workflow_llm", false),
                        of("qa_model", STRING, "Model", "Model name when not using the workflow's.")
                                .shownWhen("qa_use_workflow_llm", false),
                        of("qa_api_key", STRING, "API key", "Key for the provider (stored masked on output).")
                                .shownWhen("qa_use_workflow_llm", false),
                        of("qa_endpoint", URL, "Endpoint", "OpenAI-compatible endpoint.")
                                .shownWhen("qa_use_workflow_llm", false).placeholder("https://api.openai.com/v1"),
                        of("qa_system_prompt", MENTION_TEXTAREA, "System prompt", "How to score the call. Supports"
                                + " placeholders: {{node_summary}}, {{previous_conversation_summary}}, {{transcript}},"
                                + " {{metrics}}.").withDefault(QA_SYSTEM_PROMPT),
                        of("qa_min_call_duration", NUMBER, "Minimum duration (s)", "Shorter calls are skipped.")
                                .range(0, 3600).withDefault(15),
                        of("qa_voicemail_calls", BOOLEAN, "Analyse voicemail", "Also analyse voicemail calls.")
                                .withDefault(false),
                        of("qa_sample_rate", NUMBER, "Sample rate (%)", "Share of calls analysed.").range(0, 100)
                                .withDefault(100)),
                new GraphConstraints(null, 0, null, 0, null, null),
                List.of(new Example("QA", null, Map.of("name", "QA", "qa_enabled", true))),
                "No edges: after the call, scores the transcript with a language model (qa_system_prompt); skips calls shorter than qa_min_call_duration.");
    }
}
