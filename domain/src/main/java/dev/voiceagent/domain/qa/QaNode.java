package dev.voiceagent.domain.qa;

import dev.voiceagent.domain.voice.VoicemailDetection;
import dev.voiceagent.domain.workflow.JsonTree;
import dev.voiceagent.domain.workflow.NodeTypes;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowRun;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * A workflow's QA node, as the review after a completed call reads it: whether it runs, the model it asks (the
 * workflow's, or its own provider, model, key and OpenAI-compatible endpoint), the reviewer's system prompt, and which
 * calls it leaves out (shorter than {@code qa_min_call_duration} seconds, voicemail unless {@code qa_voicemail_calls},
 * outside the {@code qa_sample_rate} percent sample).
 */
public record QaNode(String id, String name, boolean enabled, boolean useWorkflowLlm, String provider, String model,
        String apiKey, String endpoint, String systemPrompt, double minCallDuration, boolean voicemailCalls,
        int sampleRate) {

    static final double DEFAULT_MIN_CALL_DURATION = 15;

    /** Every QA node of a definition, enabled or not, in the definition's order. */
    public static List<QaNode> of(WorkflowDefinition definition) {
        return definition.nodes().stream().filter(n -> NodeTypes.QA.equals(n.type()) && n.id() != null)
                .map(n -> of(n.id(), n.data())).toList();
    }

    /** The QA nodes a completed run of this definition has reviewed: its enabled ones. */
    public static List<String> triggered(WorkflowDefinition definition) {
        return of(definition).stream().filter(QaNode::enabled).map(QaNode::id).toList();
    }

    public static QaNode of(String id, Map<String, Object> data) {
        Map<String, Object> d = data == null ? Map.of() : data;
        String name = text(d.get("name"));
        double minimum = d.get("qa_min_call_duration") instanceof Number n && Double.isFinite(n.doubleValue())
                ? Math.max(0, n.doubleValue()) : DEFAULT_MIN_CALL_DURATION;
        int rate = d.get("qa_sample_rate") instanceof Number n && Double.isFinite(n.doubleValue())
                ? (int) Math.max(0, Math.min(100, Math.round(n.doubleValue()))) : 100;
        String prompt = text(d.get("qa_system_prompt"));
        return new QaNode(id, name == null ? "QA Analysis" : name, !Boolean.FALSE.equals(d.get("qa_enabled")),
                !Boolean.FALSE.equals(d.get("qa_use_workflow_llm")), text(d.get("qa_provider")),
                text(d.get("qa_model")), text(d.get("qa_api_key")), text(d.get("qa_endpoint")),
                prompt == null ? NodeTypes.QA_SYSTEM_PROMPT : prompt, minimum, Boolean.TRUE.equals(d.get("qa_voicemail_calls")),
                rate);
    }

    /** Where the run keeps this node's review: annotations.qa_&lt;node id&gt;. */
    public String annotationKey() {
        return "qa_" + id;
    }

    /** Whether the node names a model of its own (else the workflow's is asked). */
    public boolean ownModel() {
        return !useWorkflowLlm && provider != null;
    }

    /**
     * Why this run is not reviewed, in the reference's words, or empty when it is. {@code roll} is a draw from 1 to
     * 100, compared with the sample rate only when the rate is under 100.
     */
    public Optional<String> skipReason(WorkflowRun run, int roll) {
        Double duration = run.durationSeconds();
        if (duration != null && duration < minCallDuration) {
            return Optional.of(String.format(Locale.ROOT, "call duration (%.1fs) below minimum (%ss)", duration,
                    minCallDuration == Math.rint(minCallDuration) ? String.valueOf((long) minCallDuration)
                            : String.valueOf(minCallDuration)));
        }
        if (!voicemailCalls && voicemail(run)) {
            return Optional.of("voicemail call and QA voicemail calls is disabled");
        }
        if (sampleRate < 100 && roll > sampleRate) {
            return Optional.of("excluded by sampling (" + sampleRate + "% sample rate, rolled " + roll + ")");
        }
        return Optional.empty();
    }

    private static boolean voicemail(WorkflowRun run) {
        Map<String, Object> gathered = run.gatheredContext() == null ? Map.of() : run.gatheredContext();
        String disposition = JsonTree.asString(gathered.get("call_disposition"));
        return VoicemailDetection.DISPOSITION.equals(disposition) || "voicemail".equals(disposition)
                || "voicemail".equals(run.disposition());
    }

    private static String text(Object value) {
        return value instanceof String s && !s.isBlank() ? s.strip() : null;
    }
}
