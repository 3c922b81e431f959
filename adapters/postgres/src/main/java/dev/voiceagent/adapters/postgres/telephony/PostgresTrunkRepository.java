package dev.voiceagent.adapters.postgres.telephony;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import dev.voiceagent.adapters.postgres.shared.Columns;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.Rows;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.telephony.TrunkRepository;
import dev.voiceagent.application.telephony.TrunkView;
import dev.voiceagent.domain.telephony.Trunk;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import io.vertx.pgclient.PgException;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

@DatabaseAccess
@ApplicationScoped
public class PostgresTrunkRepository implements TrunkRepository {

    private static final String COLUMNS = "id, organization_id, telephony_configuration_id, name, enabled, settings,"
            + " created_at, updated_at";
    private static final int ID = index(COLUMNS, "id");
    private static final int ORGANIZATION_ID = index(COLUMNS, "organization_id");
    private static final int TELEPHONY_CONFIGURATION_ID = index(COLUMNS, "telephony_configuration_id");
    private static final int NAME = index(COLUMNS, "name");
    private static final int ENABLED = index(COLUMNS, "enabled");
    private static final int SETTINGS = index(COLUMNS, "settings");
    private static final int CREATED_AT = index(COLUMNS, "created_at");
    private static final int UPDATED_AT = index(COLUMNS, "updated_at");
    private static final int NUMBER_COUNT = Columns.count(COLUMNS) + 0;
    /** The trunks in {@code t} with the count of numbers that use each. */
    private static final String VIEW = """
            SELECT t.*, (SELECT count(*) FROM phone_numbers n WHERE n.organization_id =
            t.organization_id AND n.telephony_trunk_id = t.id) FROM t""";

    private final Pool pool;

    public PostgresTrunkRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<List<TrunkView>> list(long organizationId, long configurationId) {
        return pool.preparedQuery("WITH t AS (SELECT " + COLUMNS + " FROM telephony_trunks WHERE organization_id = $1"
                + " AND telephony_configuration_id = $2) " + VIEW + " ORDER BY t.id")
                .execute(Tuple.of(organizationId, configurationId))
                .map(rows -> Rows.list(rows, PostgresTrunkRepository::view));
    }

    @Override
    public Uni<Optional<TrunkView>> find(long organizationId, long configurationId, long trunkId) {
        return pool.preparedQuery("WITH t AS (SELECT " + COLUMNS + " FROM telephony_trunks WHERE organization_id = $1"
                        + " AND telephony_configuration_id = $2 AND id = $3) " + VIEW)
                .execute(Tuple.of(organizationId, configurationId, trunkId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(view(rows.iterator().next())));
    }

    @Override
    public Uni<TrunkView> insert(Trunk t) {
        return pool.preparedQuery("""
                        WITH t AS (INSERT INTO telephony_trunks (organization_id, telephony_configuration_id,
                        name, enabled, settings, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7)
                        RETURNING\s"""
                        + COLUMNS + ") " + VIEW)
                .execute(Tuple.tuple().addLong(t.organizationId()).addLong(t.configurationId()).addString(t.name())
                        .addBoolean(t.enabled()).addValue(JsonValues.toJson(t.settings()))
                        .addOffsetDateTime(t.createdAt().atOffset(ZoneOffset.UTC))
                        .addOffsetDateTime(t.updatedAt().atOffset(ZoneOffset.UTC)))
                .map(rows -> view(rows.iterator().next()));
    }

    @Override
    public Uni<TrunkView> update(Trunk t) {
        return pool.preparedQuery("""
                        WITH t AS (UPDATE telephony_trunks SET name = $1, enabled = $2, settings = $3,
                        updated_at = $4 WHERE organization_id = $5 AND telephony_configuration_id = $6 AND id = $7
                        RETURNING\s""" + COLUMNS + ") " + VIEW)
                .execute(Tuple.tuple().addString(t.name()).addBoolean(t.enabled()).addValue(JsonValues.toJson(t.settings()))
                        .addOffsetDateTime(t.updatedAt().atOffset(ZoneOffset.UTC)).addLong(t.organizationId())
                        .addLong(t.configurationId()).addLong(t.id()))
                .map(rows -> view(rows.iterator().next()));
    }

    @Override
    public Uni<Void> delete(long organizationId, long configurationId, long trunkId) {
        return pool.preparedQuery("""
                        DELETE FROM telephony_trunks WHERE organization_id = $1 AND telephony_configuration_id = $2
                        AND id = $3""").execute(Tuple.of(organizationId, configurationId, trunkId)).replaceWithVoid()
                .onFailure(f -> f instanceof PgException pg && "23503".equals(pg.getSqlState()))
                .transform(f -> new ConflictException("The trunk is used by phone numbers and cannot be deleted"));
    }

    private static TrunkView view(Row r) {
        return new TrunkView(trunk(r), r.getLong(NUMBER_COUNT));
    }

    private static Trunk trunk(Row r) {
        return new Trunk(r.getLong(ID), r.getLong(ORGANIZATION_ID), r.getLong(TELEPHONY_CONFIGURATION_ID), r.getString(NAME), r.getBoolean(ENABLED),
                JsonValues.toMap(r.getValue(SETTINGS)), r.getOffsetDateTime(CREATED_AT).toInstant(), r.getOffsetDateTime(UPDATED_AT).toInstant());
    }
}
