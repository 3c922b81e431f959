package dev.voiceagent.adapters.postgres.conversation;

import dev.voiceagent.adapters.postgres.shared.Columns;
import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.workflow.RunRows;
import dev.voiceagent.application.conversation.TextChatRecord;
import dev.voiceagent.application.conversation.TextChatRepository;
import dev.voiceagent.domain.conversation.TextChatSession;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.adapters.postgres.webhook.PostgresWebhookOutbox;
import dev.voiceagent.domain.webhook.WebhookEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** Text chat sessions beside their runs; every write is one conditional statement or one transaction. */
@DatabaseAccess
@ApplicationScoped
public class PostgresTextChatRepository implements TextChatRepository {

    private static final String RUN_COLUMNS = Columns.prefixed("r", RunRows.COLUMNS);
    /** A chat's row: the run's columns (RunRows), then the session's, read at the indexes the lists give them. */
    private static final String SESSION_COLUMNS = "s.session_data, s.checkpoint, s.revision, s.created_at,"
            + " s.updated_at, (s.busy_token IS NOT NULL AND s.busy_until > now()) AS busy";
    private static final String FIND = "SELECT " + RUN_COLUMNS + ", " + SESSION_COLUMNS
            + " FROM text_chat_sessions s JOIN workflow_runs r ON r.id = s.workflow_run_id"
            + " WHERE s.organization_id = $1 AND s.workflow_id = $2 AND s.workflow_run_id = $3";
    private static final int SESSION_DATA = RunRows.COUNT + index(SESSION_COLUMNS, "s.session_data");
    private static final int CHECKPOINT = RunRows.COUNT + index(SESSION_COLUMNS, "s.checkpoint");
    private static final int REVISION = RunRows.COUNT + index(SESSION_COLUMNS, "s.revision");
    private static final int CREATED_AT = RunRows.COUNT + index(SESSION_COLUMNS, "s.created_at");
    private static final int UPDATED_AT = RunRows.COUNT + index(SESSION_COLUMNS, "s.updated_at");
    private static final int BUSY = RunRows.COUNT
            + index(SESSION_COLUMNS, "(s.busy_token IS NOT NULL AND s.busy_until > now()) AS busy");
    /** The workflow's inactivity timeout in seconds: its configured value when it is a number, kept in 60..10500. */
    private static final String TIMEOUT = "LEAST(10500, GREATEST(60, COALESCE(CASE WHEN jsonb_typeof("
            + "d.workflow_configurations->'text_chat_inactivity_timeout_seconds') = 'number' THEN"
            + " (d.workflow_configurations->>'text_chat_inactivity_timeout_seconds')::float8 END, 1800)))";

    private final Pool pool;

    public PostgresTextChatRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<TextChatRecord> create(WorkflowRun run, TextChatSession session, Map<String, Object> checkpoint,
            Instant now) {
        OffsetDateTime at = now.atOffset(ZoneOffset.UTC);
        return pool.withTransaction(tx -> RunRows.insert(tx, run).chain(stored -> tx
                .preparedQuery("""
                        INSERT INTO text_chat_sessions (workflow_run_id, organization_id, workflow_id,
                        session_data, checkpoint, completed, last_activity_at, created_at, updated_at)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $7)""")
                .execute(Tuple.tuple().addLong(stored.id()).addLong(stored.organizationId())
                        .addLong(stored.workflowId()).addValue(JsonValues.toJson(session.toMap()))
                        .addValue(JsonValues.toJson(checkpoint)).addBoolean(session.completed()).addOffsetDateTime(at))
                .replaceWith(new TextChatRecord(stored, session, checkpoint, 0, now, now, false))));
    }

    @Override
    public Uni<Optional<TextChatRecord>> find(long organizationId, long workflowId, long runId) {
        return pool.preparedQuery(FIND).execute(Tuple.of(organizationId, workflowId, runId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(record(rows.iterator().next())));
    }

    private static TextChatRecord record(Row row) {
        WorkflowRun run = RunRows.read(row, 0);
        return new TextChatRecord(run, TextChatSession.fromMap(JsonValues.toMap(row.getValue(SESSION_DATA))),
                JsonValues.toMap(row.getValue(CHECKPOINT)), row.getInteger(REVISION),
                instant(row.getOffsetDateTime(CREATED_AT)), instant(row.getOffsetDateTime(UPDATED_AT)),
                Boolean.TRUE.equals(row.getBoolean(BUSY)));
    }

    @Override
    public Uni<Claim> claim(long runId, int revision, Duration lease, Instant now) {
        String token = UUID.randomUUID().toString();
        OffsetDateTime at = now.atOffset(ZoneOffset.UTC);
        return pool.preparedQuery("""
                        UPDATE text_chat_sessions SET busy_token = $3, busy_until = $4 WHERE
                        workflow_run_id = $1 AND revision = $2 AND NOT completed
                        AND (busy_token IS NULL OR busy_until <= $5) RETURNING workflow_run_id""")
                .execute(Tuple.of(runId, revision, token, at.plus(lease), at))
                .chain(rows -> rows.size() == 1 ? Uni.createFrom().item(new Claim(token, revision, false))
                        : pool.preparedQuery("""
                                        SELECT revision, busy_token IS NOT NULL AND busy_until > $2 AS busy
                                        FROM text_chat_sessions WHERE workflow_run_id = $1""")
                                .execute(Tuple.of(runId, at)).map(current -> {
                                    Row r = current.iterator().next();
                                    return new Claim(null, r.getInteger("revision"), Boolean.TRUE.equals(r.getBoolean("busy")));
                                }));
    }

    @Override
    public Uni<Optional<Integer>> save(long runId, int expectedRevision, String token, TextChatSession session,
            Map<String, Object> checkpoint, WorkflowRun run, Instant now, List<WebhookEvent> events) {
        OffsetDateTime at = now.atOffset(ZoneOffset.UTC);
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        UPDATE text_chat_sessions SET revision = revision + 1,
                        session_data = $3, checkpoint = $4, completed = $5, busy_token = NULL, busy_until = NULL,
                        last_activity_at = $6, updated_at = $6 WHERE workflow_run_id = $1 AND revision = $2
                        AND (busy_token IS NULL OR busy_token = $7 OR busy_until <= $6) RETURNING revision""")
                .execute(Tuple.tuple().addLong(runId).addInteger(expectedRevision)
                        .addValue(JsonValues.toJson(session.toMap())).addValue(JsonValues.toJson(checkpoint))
                        .addBoolean(session.completed() || run.completed()).addOffsetDateTime(at).addString(token))
                .chain(rows -> {
                    if (rows.size() == 0) {
                        return Uni.createFrom().item(Optional.<Integer>empty());
                    }
                    int revision = rows.iterator().next().getInteger("revision");
                    return tx.preparedQuery("""
                                    UPDATE workflow_runs r SET state = $2, is_completed = $3, usage_info = $4,
                                    gathered_context = $5, logs = COALESCE(r.logs, '{}'::jsonb) || $6
                                    FROM (SELECT is_completed FROM workflow_runs WHERE id = $1
                                    FOR UPDATE) was WHERE r.id = $1 RETURNING was.is_completed AS was_completed""")
                            .execute(Tuple.of(runId, run.state(), run.completed(), JsonValues.toJson(run.usageInfo()),
                                    JsonValues.toJson(run.gatheredContext()),
                                    JsonValues.toJson(run.logs() == null ? Map.of() : run.logs())))
                            .chain(updated -> {
                                boolean wasCompleted = updated.size() == 1
                                        && Boolean.TRUE.equals(updated.iterator().next().getBoolean("was_completed"));
                                // a completion another path committed first was announced there
                                return PostgresWebhookOutbox.enqueue(tx, run.organizationId(), events.stream()
                                        .filter(e -> !(wasCompleted && e instanceof WebhookEvent.RunCompleted))
                                        .toList());
                            })
                            .replaceWith(Optional.of(revision));
                }));
    }

    @Override
    public Uni<Void> attachTranscript(long runId, String key) {
        return pool.preparedQuery("UPDATE workflow_runs SET transcript_url = $2 WHERE id = $1")
                .execute(Tuple.of(runId, key)).replaceWithVoid();
    }

    @Override
    public Uni<Void> release(long runId, String token) {
        return pool.preparedQuery("""
                UPDATE text_chat_sessions SET busy_token = NULL, busy_until = NULL
                WHERE workflow_run_id = $1 AND busy_token = $2""").execute(Tuple.of(runId, token)).replaceWithVoid();
    }

    @Override
    public Uni<List<IdleChat>> idle(Instant now, int limit) {
        return pool.preparedQuery("""
                        SELECT s.organization_id, s.workflow_id, s.workflow_run_id FROM text_chat_sessions s
                        JOIN workflow_runs r ON r.id = s.workflow_run_id
                        JOIN workflow_definitions d ON d.id = r.definition_id
                        WHERE NOT s.completed AND (s.busy_token IS NULL OR s.busy_until <= $1)
                        AND s.last_activity_at + make_interval(secs =>\s""" + TIMEOUT + ") <= $1"
                        + " ORDER BY s.last_activity_at LIMIT $2")
                .execute(Tuple.of(now.atOffset(ZoneOffset.UTC), limit)).map(rows -> {
                    List<IdleChat> out = new ArrayList<>();
                    rows.forEach(r -> out.add(new IdleChat(r.getLong("organization_id"), r.getLong("workflow_id"),
                            r.getLong("workflow_run_id"))));
                    return out;
                });
    }
}
