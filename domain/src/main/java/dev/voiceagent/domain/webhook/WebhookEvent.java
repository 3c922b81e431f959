package dev.voiceagent.domain.webhook;

import dev.voiceagent.domain.workflow.WorkflowRun;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Every webhook event the service raises, decided here and nowhere else: its type (what an endpoint subscribes to),
 * the time it happened and its data. Persistence only writes them, in the transaction of the change they announce
 * (an event exists exactly when its change committed). {@code grep WebhookEvent} lists every kind and every place
 * that raises one.
 *
 * <p>The body an endpoint receives is {"type", "timestamp", "data"}; {@link #data()} is that "data", with its keys in
 * the order the receivers have always seen them.
 */
public sealed interface WebhookEvent {

    /**
     * Every type an endpoint may subscribe to, derived from the kinds below (the campaign's in its log events'
     * order, then the contacts', the run's and the call's).
     */
    List<String> TYPES = Stream.concat(CampaignStateChanged.BY_LOG_EVENT.values().stream(),
            Stream.of(ContactFinished.COMPLETED, ContactFinished.FAILED, ContactSkipped.TYPE,
                    RunCompleted.TYPE, CallStatusChanged.TYPE)).toList();

    String type();

    Instant at();

    Map<String, Object> data();

    /** An event's data in the order given: key, value, key, value, ... (null values kept, as receivers see them). */
    private static Map<String, Object> fields(Object... keysAndValues) {
        Map<String, Object> data = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            data.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return data;
    }

    /**
     * campaign.started, .paused, .resumed, .circuit_open, .completed, .failed: a campaign changed state. Raised by the
     * campaign's own transitions (see {@code CampaignTransition}); a log event with no webhook (created, updated,
     * contacts_loaded) raises none.
     */
    record CampaignStateChanged(String type, Instant at, long campaignId, String name, String state,
            String previousState, String message, Map<String, Object> details) implements WebhookEvent {

        /** The campaign log events that raise an event, and the type each raises. */
        static final Map<String, String> BY_LOG_EVENT = orderedMap("started", "campaign.started",
                "paused", "campaign.paused", "resumed", "campaign.resumed",
                "circuit_breaker_tripped", "campaign.circuit_open", "completed", "campaign.completed",
                "failed", "campaign.failed");

        private static Map<String, String> orderedMap(String... pairs) {
            Map<String, String> map = new LinkedHashMap<>();
            for (int i = 0; i < pairs.length; i += 2) {
                map.put(pairs[i], pairs[i + 1]);
            }
            return Collections.unmodifiableMap(map);
        }

        /** The event a campaign log entry raises, if its log event is one an endpoint can subscribe to. */
        public static Optional<WebhookEvent> of(String logEvent, Instant at, Long campaignId, String name,
                String state, String previousState, String message, Map<String, Object> details) {
            String type = BY_LOG_EVENT.get(logEvent);
            if (type == null || campaignId == null) {
                return Optional.empty();
            }
            return Optional.of(new CampaignStateChanged(type, at, campaignId, name, state, previousState, message,
                    details));
        }

        @Override
        public Map<String, Object> data() {
            return fields("campaign_id", campaignId, "name", name, "state", state, "previous_state", previousState,
                    "message", message, "details", details);
        }
    }

    /** contact.completed or contact.failed: a campaign contact reached its final outcome (no retry left). */
    record ContactFinished(Instant at, long campaignId, long contactId, int attempt, long runId, String outcome,
            boolean succeeded) implements WebhookEvent {

        static final String COMPLETED = "contact.completed";
        static final String FAILED = "contact.failed";

        @Override
        public String type() {
            return succeeded ? COMPLETED : FAILED;
        }

        @Override
        public Map<String, Object> data() {
            return fields("campaign_id", campaignId, "contact_id", contactId, "attempt", attempt, "workflow_run_id",
                    runId, "outcome", outcome);
        }
    }

    /** contact.skipped: the dispatcher skipped a contact without dialing (do-not-call); details say why. */
    record ContactSkipped(Instant at, long campaignId, Map<String, Object> details) implements WebhookEvent {

        static final String TYPE = "contact.skipped";

        @Override
        public String type() {
            return TYPE;
        }

        @Override
        public Map<String, Object> data() {
            Map<String, Object> data = fields("campaign_id", campaignId);
            if (details != null) {
                data.putAll(details);
            }
            return data;
        }
    }

    /** call.status: each change of a call's status, with the status it left. */
    record CallStatusChanged(Instant at, long runId, long callId, String status, String previousStatus,
            Integer durationSeconds, String toNumber, Long campaignId) implements WebhookEvent {

        static final String TYPE = "call.status";

        @Override
        public String type() {
            return TYPE;
        }

        @Override
        public Map<String, Object> data() {
            Map<String, Object> data = fields("workflow_run_id", runId, "call_id", callId, "status", status,
                    "previous_status", previousStatus, "duration_seconds", durationSeconds, "to_number", toNumber);
            if (campaignId != null) {
                data.put("campaign_id", campaignId);
            }
            return data;
        }
    }

    /**
     * run.completed: a run has just completed (its disposition, duration and gathered context; the public links to its
     * recording and transcript are added at each delivery, see {@code RunLinks}). It also triggers the
     * workflow's own webhook nodes, {@code webhookNodeIds} (see {@code NodeWebhook.triggered}), delivered
     * separately from the organization's endpoints, and its QA nodes' reviews, {@code qaNodeIds} (see
     * {@code QaNode.triggered}): while a review is pending, the run's run.completed and webhook nodes wait for it, so
     * that they carry its annotations. Persistence writes it only if the run was not already complete, so a
     * completion is announced once whichever path completes the run first.
     */
    record RunCompleted(Instant at, WorkflowRun run, List<String> webhookNodeIds, List<String> qaNodeIds)
            implements WebhookEvent {

        public static final String TYPE = "run.completed";

        public RunCompleted {
            webhookNodeIds = List.copyOf(webhookNodeIds);
            qaNodeIds = List.copyOf(qaNodeIds);
        }

        /** A completion that triggers no QA review. */
        public RunCompleted(Instant at, WorkflowRun run, List<String> webhookNodeIds) {
            this(at, run, webhookNodeIds, List.of());
        }

        @Override
        public String type() {
            return TYPE;
        }

        @Override
        public Map<String, Object> data() {
            return run.results();
        }
    }
}
