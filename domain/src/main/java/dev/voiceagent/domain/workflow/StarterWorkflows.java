package dev.voiceagent.domain.workflow;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Valid starter definitions made without any model call, so they work offline: the built-in
 * templates and the start -> agent -> end workflow built from a call type, use case and activity.
 */
public final class StarterWorkflows {

    private static final Instant BUILT_IN = Instant.parse("2026-01-01T00:00:00Z");

    private static final List<WorkflowTemplate> TEMPLATES = List.of(
            new WorkflowTemplate(1, "Appointment reminder",
                    "Calls a patient or client to confirm, reschedule or cancel an upcoming appointment.",
                    graph("Hi {{first_name}}, this is {{company_name}} calling about your appointment on {{appointment_time}}.",
                            "You are a friendly scheduling assistant for {{company_name}}. Remind {{first_name}} of the "
                                    + "appointment on {{appointment_time}} and ask whether they will attend.",
                            "Confirm, reschedule or cancel the appointment. If rescheduling, collect a preferred day and time.",
                            "Thank {{first_name}}, repeat what was agreed and say goodbye.",
                            "Appointment handled", "The caller confirmed, rescheduled or cancelled"),
                    BUILT_IN, Map.of("first_name", "Alex", "company_name", "Acme Dental",
                            "appointment_time", "Tuesday at 10 am")),
            new WorkflowTemplate(2, "Lead qualification",
                    "Qualifies an inbound or outbound lead on need, budget, authority and timeline.",
                    graph("Hi {{first_name}}, this is {{agent_name}} from {{company_name}}. Do you have two minutes?",
                            "You are {{agent_name}}, a polite sales development representative for {{company_name}}. "
                                    + "Introduce the reason for the call and ask for permission to continue.",
                            "Ask about the need, the budget, who decides and the timeline. Keep questions short.",
                            "Summarise the next step (a meeting with an account executive or a follow-up e-mail) and say goodbye.",
                            "Qualification done", "All four questions were answered or the caller declined"),
                    BUILT_IN, Map.of("first_name", "Alex", "agent_name", "Sam", "company_name", "Acme Software")),
            new WorkflowTemplate(3, "Customer satisfaction survey",
                    "Asks a customer three short questions after a purchase or support case.",
                    graph("Hi {{first_name}}, this is {{company_name}}. Could you answer three quick questions about your recent experience?",
                            "You are a courteous survey agent for {{company_name}}. Ask for consent before starting.",
                            "Ask for a rating from 1 to 10, what went well, and what could be better. Do not argue.",
                            "Thank {{first_name}} for the feedback and say goodbye.",
                            "Survey finished", "All questions were answered or the caller wants to stop"),
                    BUILT_IN, Map.of("first_name", "Alex", "company_name", "Acme Stores")));

    private StarterWorkflows() {
    }

    public static List<WorkflowTemplate> templates() {
        return TEMPLATES;
    }

    public static Optional<WorkflowTemplate> template(long id) {
        return TEMPLATES.stream().filter(t -> t.id() == id).findFirst();
    }

    /** The starter for create/template: prompts written from the caller's description. */
    public static WorkflowDefinition fromDescription(String callType, String useCase, String activityDescription) {
        boolean outbound = "outbound".equals(callType.toLowerCase(Locale.ROOT));
        String purpose = useCase.strip();
        String activity = activityDescription.strip();
        String greeting = outbound
                ? "Hello, I'm calling about " + purpose + ". Is now a good time?"
                : "Hello, thanks for calling. I can help you with " + purpose + ".";
        return graph(greeting,
                "You are a helpful voice agent handling " + (outbound ? "outbound" : "inbound") + " calls for: " + purpose
                        + ". Speak briefly and naturally.",
                "Carry out this activity with the caller: " + activity,
                "Summarise what was agreed, thank the caller and say goodbye.",
                "Activity complete", "The activity is done or the caller wants to end the call");
    }

    private static WorkflowDefinition graph(String greeting, String startPrompt, String agentPrompt, String endPrompt,
            String doneLabel, String doneCondition) {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("nodes", List.of(
                node("start", NodeTypes.START_CALL, 0, Map.of("name", "Start", "prompt", startPrompt,
                        "greeting", greeting, "greeting_type", "text", "allow_interrupt", false)),
                node("agent", NodeTypes.AGENT_NODE, 250, Map.of("name", "Conversation", "prompt", agentPrompt)),
                node("end", NodeTypes.END_CALL, 500, Map.of("name", "End", "prompt", endPrompt))));
        definition.put("edges", List.of(
                edge("start-agent", "start", "agent", "Caller engaged", "The caller is ready to continue"),
                edge("agent-end", "agent", "end", doneLabel, doneCondition)));
        definition.put("viewport", Map.of("x", 0, "y", 0, "zoom", 1));
        return WorkflowDefinition.of(definition);
    }

    private static Map<String, Object> node(String id, String type, int y, Map<String, Object> data) {
        Map<String, Object> node = new LinkedHashMap<>();
        node.put("id", id);
        node.put("type", type);
        node.put("position", Map.of("x", 0, "y", y));
        node.put("data", data);
        return node;
    }

    private static Map<String, Object> edge(String id, String source, String target, String label, String condition) {
        return Map.of("id", id, "source", source, "target", target, "data", Map.of("label", label, "condition", condition));
    }
}
