package dev.voiceagent.adapters.postgres.dnc;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.application.dnc.DoNotCallRepository;
import dev.voiceagent.domain.calling.DoNotCallEntry;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/** The do-not-call list; a page and its total are one statement. */
@DatabaseAccess
@ApplicationScoped
public class PostgresDoNotCallRepository implements DoNotCallRepository {

    private static final String COLUMNS = "phone_number, source, reason, workflow_run_id, created_at";
    private static final int PHONE_NUMBER = index(COLUMNS, "phone_number");
    private static final int SOURCE = index(COLUMNS, "source");
    private static final int REASON = index(COLUMNS, "reason");
    private static final int RUN_ID = index(COLUMNS, "workflow_run_id");
    private static final int CREATED_AT = index(COLUMNS, "created_at");
    /** A page's row: the total, then an entry's columns. */
    private static final int ENTRY_AT = 1;

    private final Pool pool;

    public PostgresDoNotCallRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Page> page(long organizationId, String search, int page, int limit) {
        return pool.preparedQuery("""
                        WITH f AS (SELECT %s FROM dnc_numbers WHERE organization_id = $1
                                      AND ($2::text IS NULL OR strpos(phone_number, $2) > 0
                                           OR strpos(lower(coalesce(reason, '')), lower($2)) > 0))
                        SELECT (SELECT count(*) FROM f) AS total, p.* FROM (SELECT 1) one
                          LEFT JOIN LATERAL (SELECT * FROM f ORDER BY created_at DESC, phone_number
                                              LIMIT $3 OFFSET $4) p ON true""".formatted(COLUMNS))
                .execute(Tuple.of(organizationId, search, limit, (long) (page - 1) * limit)).map(rows -> {
                    List<DoNotCallEntry> entries = new ArrayList<>();
                    long total = 0;
                    for (Row r : rows) {
                        total = r.getLong("total");
                        if (r.getString(ENTRY_AT + PHONE_NUMBER) != null) {
                            entries.add(entry(r, ENTRY_AT));
                        }
                    }
                    return new Page(entries, total);
                });
    }

    @Override
    public Uni<DoNotCallEntry> add(long organizationId, DoNotCallEntry e) {
        return pool.preparedQuery("""
                        WITH added AS (
                            INSERT INTO dnc_numbers (organization_id, phone_number, source, reason, workflow_run_id)
                            VALUES ($1, $2, $3, $4, $5) ON CONFLICT (organization_id, phone_number) DO NOTHING
                            RETURNING %1$s)
                        SELECT %1$s FROM added
                        UNION ALL SELECT %1$s FROM dnc_numbers WHERE organization_id = $1 AND phone_number = $2
                              AND NOT EXISTS (SELECT 1 FROM added)""".formatted(COLUMNS))
                .execute(Tuple.of(organizationId, e.phoneNumber(), e.source().wireName(), e.reason(),
                        e.workflowRunId()))
                .map(rows -> entry(rows.iterator().next(), 0));
    }

    @Override
    public Uni<Integer> addAll(long organizationId, List<DoNotCallEntry> entries) {
        if (entries.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        String[] numbers = entries.stream().map(DoNotCallEntry::phoneNumber).toArray(String[]::new);
        DoNotCallEntry first = entries.getFirst();
        return pool.preparedQuery("""
                        INSERT INTO dnc_numbers (organization_id, phone_number, source, reason)
                        SELECT $1, n, $3, $4 FROM unnest($2::text[]) AS n ORDER BY n
                        ON CONFLICT (organization_id, phone_number) DO NOTHING""")
                .execute(Tuple.of(organizationId, numbers, first.source().wireName(), first.reason()))
                .map(rows -> rows.rowCount());
    }

    @Override
    public Uni<Boolean> remove(long organizationId, String phoneNumber) {
        return pool.preparedQuery("DELETE FROM dnc_numbers WHERE organization_id = $1 AND phone_number = $2")
                .execute(Tuple.of(organizationId, phoneNumber)).map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<Optional<DoNotCallEntry>> find(long organizationId, String phoneNumber) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM dnc_numbers WHERE organization_id = $1"
                        + " AND phone_number = $2").execute(Tuple.of(organizationId, phoneNumber))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(entry(rows.iterator().next(), 0)));
    }

    @Override
    public Uni<List<String>> dispositionCodes(long organizationId) {
        return pool.preparedQuery("SELECT dnc_disposition_codes FROM organizations WHERE id = $1")
                .execute(Tuple.of(organizationId))
                .map(rows -> rows.size() == 0 ? List.of()
                        : Arrays.asList(rows.iterator().next().getArrayOfStrings("dnc_disposition_codes")));
    }

    @Override
    public Uni<List<String>> setDispositionCodes(long organizationId, List<String> codes) {
        return pool.preparedQuery("""
                        UPDATE organizations SET dnc_disposition_codes = $2 WHERE id = $1
                        RETURNING dnc_disposition_codes""").execute(Tuple.of(organizationId, codes.toArray(String[]::new)))
                .map(rows -> Arrays.asList(rows.iterator().next().getArrayOfStrings("dnc_disposition_codes")));
    }

    private static DoNotCallEntry entry(Row r, int o) {
        return new DoNotCallEntry(r.getString(o + PHONE_NUMBER), DoNotCallEntry.Source.fromWireName(r.getString(o + SOURCE)),
                r.getString(o + REASON), r.getLong(o + RUN_ID), instant(r.getOffsetDateTime(o + CREATED_AT)));
    }
}
