package dev.voiceagent.adapters.postgres.campaign;

import dev.voiceagent.adapters.postgres.calling.PostgresCallingHoursRepository;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.domain.campaign.CampaignLogEntry;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;

import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.shared.ReplicaIdentity;
import dev.voiceagent.adapters.postgres.workflow.RunRows;
import dev.voiceagent.application.call.CallRecord;
import dev.voiceagent.application.campaign.DispatchLedger;
import dev.voiceagent.domain.campaign.DueContact;
import dev.voiceagent.domain.campaign.Campaign;
import dev.voiceagent.domain.campaign.CampaignTransition;
import dev.voiceagent.domain.telephony.CallAttempt;
import dev.voiceagent.domain.telephony.CallStatus;
import dev.voiceagent.domain.telephony.Provider;
import dev.voiceagent.domain.workflow.WorkflowRun;
import dev.voiceagent.adapters.postgres.webhook.PostgresWebhookOutbox;
import dev.voiceagent.domain.webhook.WebhookEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.RowSet;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The dispatcher's ledger in PostgreSQL. A dispatch transaction takes the organization's advisory
 * lock (the one single-call reservations take), share-locks the campaigns still running (a pause
 * waits for it, and is seen by the next tick), claims due contacts with FOR UPDATE SKIP LOCKED and
 * writes runs, attempts and contact states in three batched statements.
 */
@DatabaseAccess
@ApplicationScoped
public class PostgresDispatchLedger implements DispatchLedger {

    /** Marks the statements every tick runs, so statement counts (pg_stat_statements) can tell them apart. */
    public static final String BACKGROUND = "/* background tick */ ";
    static final String ACTIVE = "('initiated', 'ringing', 'in-progress')";
    private static final String[] FAILURES = Arrays.stream(CallStatus.values()).filter(CallStatus::isFailure)
            .map(CallStatus::wireName).toArray(String[]::new);
    private static final String INSERT_ATTEMPT = """
            INSERT INTO calls (organization_id, workflow_run_id, telephony_configuration_id, provider, status,
                   from_number, to_number, started_at, campaign_id, contact_id, attempt_number, lease_expires_at,
                   placed_by)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
            RETURNING id
            """;

    private final Pool pool;
    private final ReplicaIdentity replica;

    public PostgresDispatchLedger(Pool pool, ReplicaIdentity replica) {
        this.pool = pool;
        this.replica = replica;
    }

    @Override
    public Uni<List<Long>> organizationsWithRunningCampaigns() {
        return pool.query(BACKGROUND + "SELECT DISTINCT organization_id FROM campaigns WHERE state = 'running'").execute()
                .map(rows -> longs(rows, "organization_id"));
    }

    @Override
    public Uni<List<RunningCampaign>> runningCampaigns(long organizationId) {
        return pool.preparedQuery("SELECT " + PostgresCampaignRepository.CAMPAIGN_COLUMNS + ", c.breaker_window_from,"
                        + " c.calling_hours_held, COALESCE(h.start_minute, o.calling_hours_start_minute) AS hours_start,"
                        + " COALESCE(h.end_minute, o.calling_hours_end_minute) AS hours_end FROM campaigns c"
                        + " JOIN organizations o ON o.id = c.organization_id"
                        + " LEFT JOIN campaign_calling_hours h ON h.campaign_id = c.id"
                        + " WHERE c.organization_id = $1 AND c.state = 'running' ORDER BY c.id")
                .execute(Tuple.of(organizationId)).map(rows -> {
                    List<RunningCampaign> running = new ArrayList<>(rows.size());
                    for (Row row : rows) {
                        running.add(new RunningCampaign(PostgresCampaignRepository.campaign(row, List.of()),
                                instant(row.getOffsetDateTime("breaker_window_from")),
                                PostgresCallingHoursRepository.hours(
                                        row.getInteger("hours_start"), row.getInteger("hours_end")),
                                Boolean.TRUE.equals(row.getBoolean("calling_hours_held"))));
                    }
                    return running;
                });
    }

    @Override
    public <T> Uni<T> underOrganizationLock(long organizationId, Function<Session, Uni<T>> work) {
        return pool.withTransaction(tx -> tx.preparedQuery("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))")
                .execute(Tuple.of("calls:" + organizationId))
                .chain(() -> work.apply(new PgSession(tx, replica.id()))));
    }

    @Override
    public Uni<List<ExpiredAttempt>> claimExpiredLeases(Instant now, Duration extension, int limit) {
        return pool.preparedQuery(BACKGROUND + """
                        UPDATE calls SET lease_expires_at = $2
                         WHERE id IN (SELECT id FROM calls
                                       WHERE status IN %s AND lease_expires_at < $1
                                       ORDER BY lease_expires_at LIMIT $3 FOR UPDATE SKIP LOCKED)
                        RETURNING id, organization_id, workflow_run_id, provider, telephony_configuration_id,
                        provider_call_id,
                                  started_at
                        """.formatted(ACTIVE))
                .execute(Tuple.of(utc(now), utc(now.plus(extension)), limit)).map(rows -> {
                    List<ExpiredAttempt> expired = new ArrayList<>(rows.size());
                    for (Row r : rows) {
                        expired.add(new ExpiredAttempt(r.getLong("id"), r.getLong("organization_id"),
                                r.getLong("workflow_run_id"), Provider.fromWireName(r.getString("provider")).orElseThrow(),
                                r.getLong("telephony_configuration_id"), r.getString("provider_call_id"),
                                instant(r.getOffsetDateTime("started_at"))));
                    }
                    return expired;
                });
    }

    @Override
    public Uni<Optional<CampaignKey>> claimImport(Instant now, Instant leaseUntil) {
        return pool.preparedQuery(BACKGROUND + """
                        UPDATE campaigns SET import_lease_until = $2
                         WHERE id = (SELECT id FROM campaigns
                                      WHERE total_rows IS NULL AND state IN ('syncing', 'paused') AND started_at IS
                                      NOT NULL
                                        AND (import_lease_until IS NULL OR import_lease_until < $1)
                                      ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
                        RETURNING organization_id, id""")
                .execute(Tuple.of(utc(now), utc(leaseUntil)))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(
                        new CampaignKey(rows.iterator().next().getLong("organization_id"),
                                rows.iterator().next().getLong("id"))));
    }

    @Override
    public Uni<Void> renewImport(CampaignKey campaign, Instant leaseUntil) {
        return pool.preparedQuery("UPDATE campaigns SET import_lease_until = $3 WHERE organization_id = $1 AND id = $2")
                .execute(Tuple.of(campaign.organizationId(), campaign.campaignId(), utc(leaseUntil))).replaceWithVoid();
    }

    static Uni<Long> activeCalls(SqlClient client, long organizationId, Instant staleBefore) {
        return client.preparedQuery("SELECT count(*) AS active FROM calls WHERE organization_id = $1 AND status IN "
                        + ACTIVE + " AND started_at > $2").execute(Tuple.of(organizationId, utc(staleBefore)))
                .map(rows -> rows.iterator().next().getLong("active"));
    }

    @Override
    public Uni<CampaignActivity> activity(long organizationId, long campaignId, Instant staleBefore) {
        return pool.preparedQuery("SELECT (SELECT count(*) FROM calls a WHERE a.campaign_id = c.id AND a.status IN "
                        + ACTIVE + " AND a.started_at > $3) AS active_calls, c.breaker_window_from FROM campaigns c"
                        + " WHERE c.organization_id = $1 AND c.id = $2")
                .execute(Tuple.of(organizationId, campaignId, utc(staleBefore)))
                .map(rows -> rows.size() == 0 ? new CampaignActivity(0, null) : new CampaignActivity(
                        rows.iterator().next().getLong("active_calls"),
                        instant(rows.iterator().next().getOffsetDateTime("breaker_window_from"))));
    }

    @Override
    public Uni<WindowCounts> outcomesSince(long campaignId, Instant since) {
        return outcomesSince(pool, campaignId, since);
    }

    static Uni<WindowCounts> outcomesSince(SqlClient client, long campaignId, Instant since) {
        Tuple args = Tuple.of(campaignId, utc(since), FAILURES);
        return client.preparedQuery("""
                SELECT count(*) AS calls, count(*) FILTER (WHERE status = ANY($3)) AS failures
                FROM calls WHERE campaign_id = $1 AND ended_at > $2""").execute(args).chain(totals -> {
                    Row t = totals.iterator().next();
                    long calls = t.getLong("calls");
                    long failures = t.getLong("failures");
                    if (failures == 0) {
                        return Uni.createFrom().item(new WindowCounts(calls, 0, List.of()));
                    }
                    return client.preparedQuery("""
                                    SELECT workflow_run_id, status, failure_reason, ended_at FROM calls
                                    WHERE campaign_id = $1 AND ended_at > $2 AND status = ANY($3)
                                    ORDER BY ended_at DESC, id DESC LIMIT 5""").execute(args)
                            .map(rows -> {
                                List<String> recent = new ArrayList<>();
                                for (Row r : rows) {
                                    String reason = r.getString("failure_reason");
                                    recent.add("run " + r.getLong("workflow_run_id") + ": " + r.getString("status")
                                            + (reason == null ? "" : " (" + reason + ")") + " at "
                                            + r.getOffsetDateTime("ended_at").toInstant());
                                }
                                return new WindowCounts(calls, failures, recent);
                            });
                });
    }

    private static List<Long> longs(RowSet<Row> rows, String column) {
        List<Long> values = new ArrayList<>(rows.size());
        for (Row row : rows) {
            values.add(row.getLong(column));
        }
        return values;
    }

    /** The statements of one organization's dispatch transaction. */
    private record PgSession(SqlClient tx, String replicaId) implements Session {

        @Override
        public Uni<Map<Long, CampaignLoad>> lockRunning(long organizationId, List<Long> campaignIds, Instant staleBefore) {
            return tx.preparedQuery("""
                            SELECT c.id,
                                   (SELECT count(*) FROM calls a
                                     WHERE a.campaign_id = c.id AND a.status IN %s AND a.started_at > $3) AS
                                     active_calls,
                                   EXISTS (SELECT 1 FROM campaign_contacts ct
                                            WHERE ct.campaign_id = c.id AND ct.state IN ('pending', 'waiting_retry',
                                            'dialing'))
                                          AS open_contacts
                              FROM campaigns c
                             WHERE c.organization_id = $1 AND c.id = ANY($2) AND c.state = 'running'
                               FOR SHARE OF c SKIP LOCKED""".formatted(ACTIVE))
                    .execute(Tuple.of(organizationId, campaignIds.toArray(Long[]::new), utc(staleBefore)))
                    .map(rows -> {
                        Map<Long, CampaignLoad> loads = new HashMap<>();
                        for (Row r : rows) {
                            loads.put(r.getLong("id"), new CampaignLoad(r.getLong("active_calls"),
                                    r.getBoolean("open_contacts")));
                        }
                        return loads;
                    });
        }

        @Override
        public Uni<Long> activeCalls(long organizationId, Instant staleBefore) {
            return PostgresDispatchLedger.activeCalls(tx, organizationId, staleBefore);
        }

        @Override
        public Uni<WindowCounts> outcomesSince(long campaignId, Instant since) {
            return PostgresDispatchLedger.outcomesSince(tx, campaignId, since);
        }

        @Override
        public Uni<List<DueContact>> claimDue(long campaignId, Instant now, int limit) {
            return tx.preparedQuery("""
                            SELECT ct.id, ct.row_number, ct.phone_number, ct.timezone, ct.context, ct.attempts,
                            ct.last_outcome,
                                   EXISTS (SELECT 1 FROM dnc_numbers d WHERE d.organization_id = ct.organization_id
                                           AND d.phone_number = ct.phone_number) AS do_not_call
                              FROM campaign_contacts ct
                             WHERE ct.organization_id = (SELECT organization_id FROM campaigns WHERE id = $1)
                               AND ct.campaign_id = $1 AND ct.state IN ('pending', 'waiting_retry')
                               AND ct.next_attempt_at <= $2
                             ORDER BY ct.next_attempt_at, ct.id
                             LIMIT $3
                               FOR UPDATE OF ct SKIP LOCKED""")
                    .execute(Tuple.of(campaignId, utc(now), limit)).map(rows -> {
                        List<DueContact> due = new ArrayList<>(rows.size());
                        for (Row r : rows) {
                            due.add(new DueContact(r.getLong("id"), r.getInteger("row_number"),
                                    r.getString("phone_number"), r.getString("timezone"),
                                    JsonValues.toMap(r.getValue("context")), r.getInteger("attempts"),
                                    r.getString("last_outcome"), Boolean.TRUE.equals(r.getBoolean("do_not_call"))));
                        }
                        return due;
                    });
        }

        @Override
        public Uni<Void> skip(long organizationId, long campaignId, Map<Long, CampaignLogEntry> contacts,
                String outcome, List<WebhookEvent> events) {
            if (contacts.isEmpty()) { // a batch of no statements is refused by the client: nothing to skip
                return PostgresWebhookOutbox.enqueue(tx, organizationId, events);
            }
            Long[] ids = contacts.keySet().toArray(Long[]::new);
            return tx.preparedQuery("""
                            WITH skipped AS (
                                UPDATE campaign_contacts SET state = 'done', last_outcome = $3
                                 WHERE campaign_id = $1 AND id = ANY($2) AND state IN ('pending', 'waiting_retry')
                                RETURNING id)
                            UPDATE campaigns SET processed_rows = processed_rows + (SELECT count(*) FROM skipped)
                             WHERE id = $1""")
                    .execute(Tuple.of(campaignId, ids, outcome))
                    .chain(() -> tx.preparedQuery(CampaignLogs.INSERT).executeBatch(contacts.values().stream()
                            .map(entry -> CampaignLogs.tuple(organizationId, campaignId, entry)).toList()))
                    .chain(() -> PostgresWebhookOutbox.enqueue(tx, organizationId, events))
                    .replaceWithVoid();
        }

        @Override
        public Uni<Void> defer(Map<Long, Instant> until, Map<Long, Instant> callingHours) {
            Long[] ids = until.keySet().toArray(Long[]::new);
            OffsetDateTime[] times = until.values().stream().map(i -> utc(i)).toArray(OffsetDateTime[]::new);
            OffsetDateTime[] hours = until.keySet().stream().map(id -> utc(callingHours.get(id)))
                    .toArray(OffsetDateTime[]::new);
            return tx.preparedQuery("""
                            UPDATE campaign_contacts ct SET next_attempt_at = u.at, calling_hours_at = u.hours
                            FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[]) AS u(id, at, hours)
                            WHERE ct.id = u.id""")
                    .execute(Tuple.of(ids, times, hours)).replaceWithVoid();
        }

        @Override
        public Uni<Void> heldByCallingHours(long organizationId, long campaignId, boolean held,
                CampaignLogEntry entry) {
            return tx.preparedQuery("UPDATE campaigns SET calling_hours_held = $2 WHERE id = $1")
                    .execute(Tuple.of(campaignId, held))
                    .chain(() -> CampaignLogs.append(tx, organizationId, campaignId, entry));
        }

        @Override
        public Uni<List<CallRecord>> record(List<CallRecord> attempts, Instant leaseUntil) {
            if (attempts.isEmpty()) { // a batch of no statements is refused by the client: nothing to record
                return Uni.createFrom().item(List.of());
            }
            return tx.preparedQuery(RunRows.INSERT)
                    .executeBatch(attempts.stream().map(a -> RunRows.insertTuple(a.run())).toList())
                    .map(PgSession::eachFirstRow).map(rows -> rows.stream().map(row -> RunRows.read(row, 0)).toList())
                    .chain(runs -> {
                        List<Tuple> calls = new ArrayList<>(attempts.size());
                        for (int i = 0; i < attempts.size(); i++) {
                            CallRecord a = attempts.get(i);
                            calls.add(Tuple.tuple().addLong(a.run().organizationId()).addLong(runs.get(i).id())
                                    .addLong(a.configurationId()).addString(a.provider().wireName())
                                    .addString(a.attempt().status().wireName()).addString(a.fromNumber())
                                    .addString(a.toNumber()).addOffsetDateTime(utc(a.attempt().startedAt()))
                                    .addLong(a.campaign().campaignId()).addLong(a.campaign().contactId())
                                    .addInteger(a.campaign().attemptNumber()).addOffsetDateTime(utc(leaseUntil))
                                    .addString(replicaId));
                        }
                        return tx.preparedQuery(INSERT_ATTEMPT).executeBatch(calls)
                                .map(PgSession::eachFirstRow)
                                .chain(ids -> tx.preparedQuery("""
                                                UPDATE campaign_contacts SET state = 'dialing',
                                                attempts = $2 WHERE id = $1 AND attempts = $2 - 1
                                                AND state IN ('pending', 'waiting_retry')""")
                                        .executeBatch(attempts.stream().map(a -> Tuple.of(a.campaign().contactId(),
                                                a.campaign().attemptNumber())).toList())
                                        .map(ignored -> {
                                            List<CallRecord> stored = new ArrayList<>(attempts.size());
                                            for (int i = 0; i < attempts.size(); i++) {
                                                CallRecord a = attempts.get(i);
                                                WorkflowRun run = runs.get(i);
                                                CallAttempt attempt = new CallAttempt(ids.get(i).getLong("id"),
                                                        run.organizationId(), run.id(), null, a.attempt().status(),
                                                        a.attempt().startedAt(), null, null, null);
                                                stored.add(new CallRecord(attempt, run, a.provider(), a.configurationId(),
                                                        a.fromNumber(), a.toNumber(), a.campaign()));
                                            }
                                            return stored;
                                        }));
                    });
        }

        @Override
        public Uni<Boolean> transition(Campaign before, CampaignTransition transition) {
            return PostgresCampaignRepository.applyTransition(tx, before, transition);
        }

        /** executeBatch with RETURNING: one result per tuple, in order. */
        private static List<Row> eachFirstRow(RowSet<Row> first) {
            List<Row> rows = new ArrayList<>();
            for (RowSet<Row> set = first; set != null; set = set.next()) {
                rows.add(set.iterator().next());
            }
            return rows;
        }
    }
}
