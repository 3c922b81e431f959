package dev.voiceagent.application.webhook;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * Out-port: the deliveries waiting to go out. A claim takes due ones under a lease (a replica that dies lets go
 * when it expires) and counts the attempt; the outcome is written only by the lease holder, with its attempt record.
 */
public interface WebhookOutbox {

    /** The event type of a workflow's webhook node's delivery. */
    String WEBHOOK_NODE = "workflow.webhook";

    /** The event type of a workflow's QA node's review of a completed run (no request: the review runs here). */
    String QA_REVIEW = "workflow.qa";

    /**
     * A claimed delivery: where to, what, and the secrets to sign with (the current first), with the run of a
     * run.completed (its links are added at delivery, {@link RunLinks}); or, for a workflow's webhook node
     * ({@code nodeId} set, no url), the run and the node whose request is planned at delivery; for a QA node
     * ({@link #QA_REVIEW}), the run it reviews.
     */
    record Due(long deliveryId, long organizationId, String url, String messageId, String eventType, String body,
            int attempt, List<String> secrets, Long workflowRunId, String nodeId) {
    }

    record AttemptRecord(int attempt, Integer status, String error, long durationMs, String responseExcerpt,
            Instant attemptedAt) {
    }

    Uni<List<Due>> claim(String owner, Instant now, Duration lease, int limit);

    /**
     * The body of a claimed delivery as it goes out now: its event with {@code data}'s entries set in the event's
     * data (null values kept). What is stored is left as it is, so that every attempt carries what is current then.
     */
    Uni<String> bodyWith(long deliveryId, Map<String, Object> data);

    /** {@code next} null: final (delivered when the status is 2xx, else dead). Whether the lease was still ours. */
    Uni<Boolean> settle(long deliveryId, String owner, AttemptRecord attempt, boolean delivered, Instant next);
}
