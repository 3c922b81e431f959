package dev.voiceagent.application.workflow;

import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Multi;
import dev.voiceagent.domain.webhook.WebhookEvent;
import io.smallrye.mutiny.Uni;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/** Out-port: the runs of a workflow, always within one organization. */
public interface WorkflowRunRepository {

    Uni<WorkflowRun> insert(WorkflowRun run);

    Uni<Optional<WorkflowRun>> find(long organizationId, long workflowId, long runId);

    /**
     * Completes, with the given disposition, the browser runs (webrtc, smallwebrtc) created before {@code before} that
     * never started (still initialized, no telephony call); at most {@code limit}; how many. In the same transaction,
     * the webhook events {@code events} gives for each closed run, as it is after closing.
     */
    Uni<Integer> closeUnstarted(Instant before, String disposition, int limit,
            Function<WorkflowRun, List<WebhookEvent>> events);

    /**
     * Completes, with the given disposition and {@code error}, the runs whose call media a replica held but stopped
     * keeping alive (its heartbeat older than {@code heartbeatBefore}: the replica died mid-call); their media is
     * released; at most {@code limit}; how many. Values already on the run are kept (a carrier's report may still add
     * its own). In the same transaction, the webhook events {@code events} gives for each closed run.
     */
    Uni<Integer> closeOrphaned(Instant heartbeatBefore, String disposition, String error, int limit,
            Function<WorkflowRun, List<WebhookEvent>> events);

    /**
     * Changes a run's annotations and usage_info under its row's lock, so that concurrent changes (two QA reviews of
     * one run) each start from the other's: {@code change} gets the run as stored and returns it changed; only those
     * two are written. The run as written; empty when the organization has no such run.
     */
    Uni<Optional<WorkflowRun>> amend(long organizationId, long runId, UnaryOperator<WorkflowRun> change);

    /** A run by id alone: only for what a signed link names (the link is the authorization). */
    Uni<Optional<WorkflowRun>> findById(long runId);

    Uni<RunPage> page(long organizationId, long workflowId, RunPageQuery query);

    /** The runs a campaign placed, with the same filters and sorting. */
    Uni<RunPage> pageForCampaign(long organizationId, long campaignId, RunPageQuery query);

    /** The newest runs first, at most {@code limit}. */
    Uni<List<WorkflowRun>> recent(long organizationId, long workflowId, int limit);

    /** Extracted-variable names of the reportable runs, in first-seen order (newest run first). */
    Uni<List<String>> reportVariables(long organizationId, long workflowId, Instant from, Instant to);

    /** The reportable runs (completed, with a duration), newest first, streamed from the database. */
    Multi<WorkflowRun> reportRuns(long organizationId, long workflowId, Instant from, Instant to);

    /** As {@link #reportVariables}, over the runs a campaign placed. */
    Uni<List<String>> campaignReportVariables(long organizationId, long campaignId, Instant from, Instant to);

    /** As {@link #reportRuns}, over the runs a campaign placed. */
    Multi<WorkflowRun> campaignReportRuns(long organizationId, long campaignId, Instant from, Instant to);
}
