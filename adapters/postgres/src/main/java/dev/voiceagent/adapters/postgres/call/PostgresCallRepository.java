package dev.voiceagent.adapters.postgres.call;

import dev.voiceagent.adapters.postgres.shared.Columns;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;
import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.shared.ReplicaIdentity;
import dev.voiceagent.adapters.postgres.shared.UniqueViolation;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.adapters.postgres.workflow.RunRows;
import dev.voiceagent.application.call.CallRecord;
import dev.voiceagent.application.call.CampaignAttempt;
import dev.voiceagent.application.call.ContactEffect;
import dev.voiceagent.adapters.postgres.campaign.CampaignLogs;
import dev.voiceagent.adapters.postgres.webhook.PostgresWebhookOutbox;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import dev.voiceagent.application.call.CallRepository;
import dev.voiceagent.application.voice.runtime.port.out.VoiceRunStore;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.workflow.WorkflowRun;
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
import java.util.List;
import java.util.Optional;

/**
 * Calls in PostgreSQL. A reservation takes a transaction-scoped advisory lock per organization, so
 * that counting the active calls and inserting the new one is exact with any number of replicas.
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresCallRepository implements CallRepository {

    private static final String ACTIVE = "('initiated', 'ringing', 'in-progress')";
    private static final String CALL_COLUMNS = "id, organization_id, workflow_run_id, provider_call_id, status,"
            + " started_at, answered_at, ended_at, duration_seconds, provider, telephony_configuration_id,"
            + " from_number, to_number, campaign_id, contact_id, attempt_number";
    /** A call row: the call's columns, then its run's (RunRows), each read at the index its list gives it. */
    private static final String FIND_BY_RUN = "SELECT " + Columns.prefixed("c", CALL_COLUMNS) + ", "
            + Columns.prefixed("r", RunRows.COLUMNS)
            + " FROM calls c JOIN workflow_runs r ON r.id = c.workflow_run_id WHERE c.workflow_run_id = $1";
    private static final int RUN_AT = Columns.count(CALL_COLUMNS);
    private static final int ID = index(CALL_COLUMNS, "id");
    private static final int ORGANIZATION_ID = index(CALL_COLUMNS, "organization_id");
    private static final int RUN_ID = index(CALL_COLUMNS, "workflow_run_id");
    private static final int PROVIDER_CALL_ID = index(CALL_COLUMNS, "provider_call_id");
    private static final int STATUS = index(CALL_COLUMNS, "status");
    private static final int STARTED_AT = index(CALL_COLUMNS, "started_at");
    private static final int ANSWERED_AT = index(CALL_COLUMNS, "answered_at");
    private static final int ENDED_AT = index(CALL_COLUMNS, "ended_at");
    private static final int DURATION = index(CALL_COLUMNS, "duration_seconds");
    private static final int PROVIDER = index(CALL_COLUMNS, "provider");
    private static final int CONFIGURATION_ID = index(CALL_COLUMNS, "telephony_configuration_id");
    private static final int FROM = index(CALL_COLUMNS, "from_number");
    private static final int TO = index(CALL_COLUMNS, "to_number");
    private static final int CAMPAIGN_ID = index(CALL_COLUMNS, "campaign_id");
    private static final int CONTACT_ID = index(CALL_COLUMNS, "contact_id");
    private static final int ATTEMPT = index(CALL_COLUMNS, "attempt_number");

    private final Pool pool;
    private final ReplicaIdentity replica;

    public PostgresCallRepository(Pool pool, ReplicaIdentity replica) {
        this.pool = pool;
        this.replica = replica;
    }

    @Override
    public Uni<Optional<Integer>> organizationLimit(long organizationId) {
        return pool.preparedQuery("SELECT concurrent_call_limit FROM organizations WHERE id = $1")
                .execute(Tuple.of(organizationId))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.ofNullable(rows.iterator().next().getInteger("concurrent_call_limit")));
    }

    @Override
    public Uni<Optional<CallRecord>> reserve(long organizationId, int limit, Duration stale, WorkflowRun run,
            CallRecord call) {
        OffsetDateTime since = call.attempt().startedAt().minus(stale).atOffset(ZoneOffset.UTC);
        return pool.withTransaction(tx -> tx.preparedQuery("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
                .execute(Tuple.of("calls:" + organizationId))
                .chain(() -> tx.preparedQuery("SELECT count(*) AS live FROM calls WHERE organization_id = $1 AND status IN "
                        + ACTIVE + " AND started_at > $2").execute(Tuple.of(organizationId, since)))
                .chain(rows -> {
                    if (rows.iterator().next().getLong("live") >= limit) {
                        return Uni.createFrom().item(Optional.<CallRecord>empty());
                    }
                    Uni<WorkflowRun> stored = run.id() != null ? Uni.createFrom().item(run)
                            : RunRows.insert(tx, run);
                    return stored.chain(storedRun -> tx.preparedQuery(
                                    """
                                            INSERT INTO calls (organization_id, workflow_run_id,
                                            telephony_configuration_id, provider,
                                            status, from_number, to_number, started_at, placed_by)
                                            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id""")
                            .execute(Tuple.tuple().addLong(organizationId).addLong(storedRun.id())
                                    .addLong(call.configurationId()).addString(call.provider().wireName())
                                    .addString(call.attempt().status().wireName()).addString(call.fromNumber())
                                    .addString(call.toNumber()).addOffsetDateTime(utc(call.attempt().startedAt()))
                                    .addString(replica.id()))
                            .map(ids -> {
                                CallAttempt a = call.attempt();
                                return Optional.of(new CallRecord(new CallAttempt(ids.iterator().next().getLong("id"),
                                        organizationId, storedRun.id(), null, a.status(), a.startedAt(), null, null, null),
                                        storedRun, call.provider(), call.configurationId(), call.fromNumber(), call.toNumber()));
                            }));
                }))
                .onFailure(f -> UniqueViolation.of(f, "calls_workflow_run_id_key"))
                .transform(f -> new ConflictException("The run already has a call"));
    }

    @Override
    public Uni<Void> attachProviderCallId(long callId, String providerCallId) {
        return pool.preparedQuery("UPDATE calls SET provider_call_id = $1, updated_at = now() WHERE id = $2")
                .execute(Tuple.of(providerCallId, callId)).replaceWithVoid();
    }

    @Override
    public Uni<Optional<Long>> runIdOfProviderCall(Provider provider, String providerCallId) {
        return pool.preparedQuery("SELECT workflow_run_id FROM calls WHERE provider = $1 AND provider_call_id = $2")
                .execute(Tuple.of(provider.wireName(), providerCallId))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.of(rows.iterator().next().getLong("workflow_run_id")));
    }

    @Override
    public Uni<Optional<CallRecord>> findByRun(long runId) {
        return pool.preparedQuery(FIND_BY_RUN).execute(Tuple.of(runId)).map(rows -> {
            if (rows.size() == 0) {
                return Optional.empty();
            }
            Row row = rows.iterator().next();
            return Optional.of(record(row, RunRows.read(row, RUN_AT)));
        });
    }

    @Override
    public Uni<Boolean> applyReport(CallRecord before, CallAttempt after, WorkflowRun runAfter, ContactEffect effect,
            List<WebhookEvent> events) {
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        UPDATE calls SET status = $1, answered_at = $2, ended_at = $3,
                        duration_seconds = $4, failure_reason = COALESCE($7, failure_reason), updated_at = now()
                        WHERE id = $5 AND status = $6""")
                .execute(Tuple.tuple().addString(after.status().wireName()).addOffsetDateTime(utc(after.answeredAt()))
                        .addOffsetDateTime(utc(after.endedAt())).addInteger(after.durationSeconds())
                        .addLong(before.attempt().id()).addString(before.attempt().status().wireName())
                        .addString(effect == null ? null : effect.failureReason()))
                .chain(updated -> updated.rowCount() == 0 ? Uni.createFrom().item(false)
                        // a run whose voice session still holds its media (a heartbeat within STALE) is completed
                        // by that session when it finishes, with what the call gathered: the carrier's report merges
                        // its values and leaves the completion (and run.completed) to it; a session gone quiet is a
                        // replica that died, and the report completes the run as if none held it
                        : tx.preparedQuery("""
                                        WITH prior AS (SELECT id, is_completed, COALESCE(media_owner IS NOT NULL
                                                                  AND media_heartbeat_at >= $6, false) AS held
                                                         FROM workflow_runs WHERE id = $5 FOR UPDATE)
                                        UPDATE workflow_runs r
                                           SET state = CASE WHEN p.is_completed OR (p.held AND $2) THEN r.state
                                                            ELSE $1 END,
                                               is_completed = p.is_completed OR ($2 AND NOT p.held),
                                               usage_info = COALESCE(r.usage_info, '{}'::jsonb) || $3,
                                               gathered_context = COALESCE(r.gathered_context, '{}'::jsonb) || $4
                                          FROM prior p WHERE r.id = p.id
                                        RETURNING p.is_completed AS was_completed, r.is_completed AS completed""")
                                .execute(Tuple.tuple().addString(runAfter.state()).addBoolean(runAfter.completed())
                                        .addValue(JsonValues.toJson(runAfter.usageInfo()))
                                        .addValue(JsonValues.toJson(runAfter.gatheredContext())).addLong(runAfter.id())
                                        .addOffsetDateTime(utc((after.endedAt() != null ? after.endedAt()
                                                : Instant.now()).minus(VoiceRunStore.STALE))))
                                .chain(runRows -> effect == null ? Uni.createFrom().item(runRows)
                                        : settleContact(tx, after, effect).replaceWith(runRows))
                                // run.completed only where this report completed the run: not when the voice session
                                // completed it since it was read (its run.completed went out then, not twice), nor
                                // when the session still holds it (its own goes out when it finishes)
                                .chain(runRows -> PostgresWebhookOutbox.enqueue(tx, after.organizationId(),
                                        completedHere(runRows) ? events : events.stream()
                                                .filter(e -> !(e instanceof WebhookEvent.RunCompleted)).toList()))
                                .replaceWith(true)));
    }

    private static boolean completedHere(RowSet<Row> rows) {
        if (rows.size() == 0) {
            return false;
        }
        Row row = rows.iterator().next();
        return !Boolean.TRUE.equals(row.getBoolean("was_completed"))
                && Boolean.TRUE.equals(row.getBoolean("completed"));
    }

    /**
     * The contact leaves 'dialing' for this attempt exactly once (guarded by state and attempt
     * number), and the campaign's counters move with it in the same statement.
     */
    private static Uni<Void> settleContact(SqlClient tx, CallAttempt after, ContactEffect effect) {
        CampaignAttempt a = effect.attempt();
        return tx.preparedQuery("""
                        WITH settled AS (
                            UPDATE campaign_contacts
                               SET state = CASE WHEN $4 THEN 'done' ELSE 'waiting_retry' END,
                                   next_attempt_at = COALESCE($5, next_attempt_at), last_outcome = $6
                             WHERE id = $1 AND campaign_id = $2 AND state = 'dialing' AND attempts = $3
                            RETURNING campaign_id)
                        UPDATE campaigns c
                           SET processed_rows = processed_rows + (CASE WHEN $4 THEN 1 ELSE 0 END),
                               failed_rows = failed_rows + (CASE WHEN $4 AND NOT $7 THEN 1 ELSE 0 END)
                          FROM settled WHERE c.id = settled.campaign_id""")
                .execute(Tuple.tuple().addLong(a.contactId()).addLong(a.campaignId()).addInteger(a.attemptNumber())
                        .addBoolean(effect.finished()).addOffsetDateTime(utc(effect.retryAt()))
                        .addString(after.status().wireName()).addBoolean(effect.succeeded()))
                .chain(() -> effect.log() == null ? Uni.createFrom().voidItem()
                        : CampaignLogs.append(tx, after.organizationId(), a.campaignId(), effect.log()))
                .replaceWithVoid();
    }

    @Override
    public Uni<Boolean> alreadyApplied(String provider, String dedupKey) {
        return pool.preparedQuery("SELECT 1 FROM call_callbacks WHERE provider = $1 AND dedup_key = $2")
                .execute(Tuple.of(provider, dedupKey)).map(rows -> rows.size() > 0);
    }

    @Override
    public Uni<Void> markApplied(String provider, String dedupKey, long callId) {
        return pool.preparedQuery("""
                INSERT INTO call_callbacks (provider, dedup_key, call_id) VALUES ($1, $2, $3)
                ON CONFLICT DO NOTHING""").execute(Tuple.of(provider, dedupKey, callId)).replaceWithVoid();
    }

    private static CallRecord record(Row r, WorkflowRun run) {
        CallAttempt attempt = new CallAttempt(r.getLong(ID), r.getLong(ORGANIZATION_ID), r.getLong(RUN_ID),
                r.getString(PROVIDER_CALL_ID), CallStatus.fromWireName(r.getString(STATUS)).orElseThrow(),
                instant(r.getOffsetDateTime(STARTED_AT)), instant(r.getOffsetDateTime(ANSWERED_AT)),
                instant(r.getOffsetDateTime(ENDED_AT)), r.getInteger(DURATION));
        CampaignAttempt campaign = r.getLong(CAMPAIGN_ID) == null ? null
                : new CampaignAttempt(r.getLong(CAMPAIGN_ID), r.getLong(CONTACT_ID), r.getInteger(ATTEMPT));
        return new CallRecord(attempt, run, Provider.fromWireName(r.getString(PROVIDER)).orElseThrow(),
                r.getLong(CONFIGURATION_ID), r.getString(FROM), r.getString(TO), campaign);
    }
}
