package dev.voiceagent.adapters.postgres.voice;

import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.shared.ReplicaIdentity;
import dev.voiceagent.adapters.postgres.webhook.PostgresWebhookOutbox;
import dev.voiceagent.adapters.postgres.workflow.RunRows;
import dev.voiceagent.application.voice.runtime.port.out.CallCheckpoint;
import dev.voiceagent.application.voice.runtime.port.out.VoiceRunStore;
import dev.voiceagent.domain.webhook.WebhookEvent;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The voice runtime's hold on a run: one conditional UPDATE claims it (one socket wins), a heartbeat keeps it, and
 * the end merges the call's values into the run under a row lock, so a provider's report and the session's end
 * never lose each other's values and run.completed is enqueued by whichever completes the run.
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresVoiceRunStore implements VoiceRunStore {

    private final Pool pool;
    private final ReplicaIdentity replica;

    public PostgresVoiceRunStore(Pool pool, ReplicaIdentity replica) {
        this.pool = pool;
        this.replica = replica;
    }

    @Override
    public Uni<Claim> claim(long organizationId, long workflowId, long runId, Instant now) {
        return pool.preparedQuery("""
                        UPDATE workflow_runs SET state = 'running', media_owner = $4, media_heartbeat_at = $5
                         WHERE id = $3 AND organization_id = $1 AND workflow_id = $2 AND NOT is_completed
                           AND (media_owner IS NULL OR media_heartbeat_at < $6)
                        RETURNING voice_checkpoint,\s""" + RunRows.COLUMNS)
                .execute(Tuple.of(organizationId, workflowId, runId, replica.id(), utc(now), utc(now.minus(STALE))))
                .chain(rows -> rows.size() > 0 ? Uni.createFrom().item(claimed(rows.iterator().next()))
                        : pool.preparedQuery("SELECT is_completed FROM workflow_runs WHERE id = $3"
                                        + " AND organization_id = $1 AND workflow_id = $2")
                                .execute(Tuple.of(organizationId, workflowId, runId))
                                .map(found -> found.size() == 0 ? Claim.refused(Refusal.UNKNOWN)
                                        : found.iterator().next().getBoolean("is_completed")
                                        ? Claim.refused(Refusal.COMPLETED) : Claim.refused(Refusal.TAKEN)));
    }

    private static Claim claimed(Row row) {
        Object checkpoint = row.getValue("voice_checkpoint");
        return Claim.claimed(RunRows.read(row, 1), checkpoint == null ? null
                : CallCheckpoint.fromMap(JsonValues.toMap(checkpoint)));
    }

    @Override
    public Uni<Void> checkpoint(long runId, CallCheckpoint checkpoint) {
        return pool.preparedQuery("UPDATE workflow_runs SET voice_checkpoint = $3 WHERE id = $1 AND media_owner = $2"
                        + " AND NOT is_completed")
                .execute(Tuple.of(runId, replica.id(), JsonValues.toJson(checkpoint.toMap()))).replaceWithVoid();
    }

    @Override
    public Uni<Void> addContextVariables(long runId, Map<String, Object> variables) {
        return pool.preparedQuery("UPDATE workflow_runs SET initial_context = COALESCE(initial_context, '{}'::jsonb)"
                        + " || $3 WHERE id = $1 AND media_owner = $2 AND NOT is_completed")
                .execute(Tuple.of(runId, replica.id(), JsonValues.toJson(variables))).replaceWithVoid();
    }

    @Override
    public Uni<Void> release(long runId, CallCheckpoint checkpoint) {
        return pool.preparedQuery("UPDATE workflow_runs SET voice_checkpoint = $3, media_owner = NULL,"
                        + " media_heartbeat_at = NULL WHERE id = $1 AND media_owner = $2 AND NOT is_completed")
                .execute(Tuple.of(runId, replica.id(), JsonValues.toJson(checkpoint.toMap()))).replaceWithVoid();
    }

    @Override
    public Uni<Optional<Reopened>> reopen(long runId, int maxMoves) {
        return pool.preparedQuery("""
                        UPDATE workflow_runs SET media_owner = NULL, media_heartbeat_at = NULL,
                               media_moves = media_moves + 1
                         WHERE id = $1 AND NOT is_completed AND media_moves < $2
                        RETURNING organization_id, workflow_id""")
                .execute(Tuple.of(runId, maxMoves))
                .map(rows -> rows.size() == 0 ? Optional.<Reopened>empty() : Optional.of(new Reopened(
                        rows.iterator().next().getLong("organization_id"),
                        rows.iterator().next().getLong("workflow_id"))));
    }

    @Override
    public Uni<Optional<String>> heartbeatAndAmd(long runId, Instant now) {
        return pool.preparedQuery("UPDATE workflow_runs SET media_heartbeat_at = $3 WHERE id = $1 AND media_owner = $2"
                        + " RETURNING carrier_amd")
                .execute(Tuple.of(runId, replica.id(), utc(now)))
                .map(rows -> rows.size() == 0 ? Optional.<String>empty()
                        : Optional.ofNullable(rows.iterator().next().getString("carrier_amd")));
    }

    @Override
    public Uni<Void> carrierAmd(long runId, String verdict) {
        return pool.preparedQuery("UPDATE workflow_runs SET carrier_amd = $2 WHERE id = $1 AND NOT is_completed")
                .execute(Tuple.of(runId, verdict)).replaceWithVoid();
    }

    @Override
    public Uni<Void> heartbeat(long runId, Instant now) {
        return pool.preparedQuery("UPDATE workflow_runs SET media_heartbeat_at = $3 WHERE id = $1 AND media_owner = $2")
                .execute(Tuple.of(runId, replica.id(), utc(now))).replaceWithVoid();
    }

    @Override
    public Uni<Boolean> finish(WorkflowRun ended, List<Map<String, Object>> events, List<WebhookEvent> webhooks,
            Instant now) {
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        WITH prior AS (SELECT id, is_completed FROM workflow_runs WHERE id = $1 FOR UPDATE)
                        UPDATE workflow_runs r
                           SET state = 'completed', is_completed = true,
                               usage_info = COALESCE(r.usage_info, '{}'::jsonb) || $2,
                               gathered_context = COALESCE(r.gathered_context, '{}'::jsonb) || $3,
                               logs = COALESCE(r.logs, '{}'::jsonb)
                                      || jsonb_build_object('realtime_feedback_events', $4::jsonb),
                               recording_url = COALESCE($5, r.recording_url),
                               transcript_url = COALESCE($6, r.transcript_url),
                               media_owner = NULL, media_heartbeat_at = NULL, voice_checkpoint = NULL
                          FROM prior p
                         WHERE r.id = p.id
                        RETURNING p.is_completed AS was_completed""")
                .execute(Tuple.tuple().addLong(ended.id()).addValue(JsonValues.toJson(ended.usageInfo()))
                        .addValue(JsonValues.toJson(ended.gatheredContext())).addValue(JsonValues.toJsonArray(events))
                        .addString(ended.recordingUrl()).addString(ended.transcriptUrl()))
                .chain(rows -> {
                    boolean completedHere = rows.size() > 0 && !wasCompleted(rows.iterator().next());
                    return completedHere ? PostgresWebhookOutbox.enqueue(tx, ended.organizationId(), webhooks)
                            .replaceWith(true) : Uni.createFrom().item(false);
                }));
    }

    private static boolean wasCompleted(Row row) {
        return Boolean.TRUE.equals(row.getBoolean("was_completed"));
    }
}
