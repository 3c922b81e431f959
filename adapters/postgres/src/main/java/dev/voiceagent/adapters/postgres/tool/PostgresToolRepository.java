package dev.voiceagent.adapters.postgres.tool;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import dev.voiceagent.adapters.postgres.shared.Columns;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.shared.Rows;
import dev.voiceagent.application.tool.ToolRepository;
import dev.voiceagent.domain.tool.Tool;
import dev.voiceagent.domain.tool.ToolCategory;
import dev.voiceagent.domain.tool.ToolStatus;
import dev.voiceagent.domain.workflow.JsonTree;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** Tools with the creator's provider id joined in: every read is one statement. */
@DatabaseAccess
@ApplicationScoped
public class PostgresToolRepository implements ToolRepository {

    private static final String COLUMNS = "t.id, t.organization_id, t.uuid, t.name, t.description, t.category, t.icon,"
            + " t.icon_color, t.status, t.definition, t.created_by, t.created_at, t.updated_at";
    private static final int ID = index(COLUMNS, "t.id");
    private static final int ORGANIZATION_ID = index(COLUMNS, "t.organization_id");
    private static final int UUID = index(COLUMNS, "t.uuid");
    private static final int NAME = index(COLUMNS, "t.name");
    private static final int DESCRIPTION = index(COLUMNS, "t.description");
    private static final int CATEGORY = index(COLUMNS, "t.category");
    private static final int ICON = index(COLUMNS, "t.icon");
    private static final int ICON_COLOR = index(COLUMNS, "t.icon_color");
    private static final int STATUS = index(COLUMNS, "t.status");
    private static final int DEFINITION = index(COLUMNS, "t.definition");
    private static final int CREATED_BY = index(COLUMNS, "t.created_by");
    private static final int CREATED_AT = index(COLUMNS, "t.created_at");
    private static final int UPDATED_AT = index(COLUMNS, "t.updated_at");
    private static final int CREATOR_PROVIDER_ID = Columns.count(COLUMNS) + 0;
    private static final String SELECT = "SELECT " + COLUMNS + ", u.provider_id FROM tools t"
            + " LEFT JOIN users u ON u.id = t.created_by";

    private final Pool pool;

    public PostgresToolRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<List<StoredTool>> list(long organizationId, Set<ToolStatus> statuses, ToolCategory category) {
        return pool.preparedQuery(SELECT + " WHERE t.organization_id = $1 AND t.status = ANY($2)"
                        + " AND ($3::text IS NULL OR t.category = $3) ORDER BY t.created_at DESC, t.id DESC")
                .execute(Tuple.of(organizationId, statuses.stream().map(ToolStatus::wireName).toArray(String[]::new),
                        category == null ? null : category.wireName()))
                .map(rows -> Rows.list(rows, PostgresToolRepository::stored));
    }

    @Override
    public Uni<Optional<StoredTool>> find(long organizationId, String uuid) {
        return pool.preparedQuery(SELECT + " WHERE t.organization_id = $1 AND t.uuid = $2")
                .execute(Tuple.of(organizationId, uuid))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(stored(rows.iterator().next())));
    }

    @Override
    public Uni<List<Tool>> findAll(long organizationId, Collection<String> uuids) {
        if (uuids.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        return pool.preparedQuery(SELECT + " WHERE t.organization_id = $1 AND t.uuid = ANY($2)")
                .execute(Tuple.of(organizationId, uuids.toArray(String[]::new)))
                .map(rows -> Rows.list(rows, r -> stored(r).tool()));
    }

    @Override
    public Uni<StoredTool> insert(Tool t) {
        return pool.preparedQuery("""
                        WITH t AS (INSERT INTO tools (organization_id, uuid, name, description, category,
                        icon, icon_color, status, definition, created_by, created_at, updated_at)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING *)
                        SELECT\s""" + COLUMNS + ", u.provider_id FROM t LEFT JOIN users u ON u.id = t.created_by")
                .execute(Tuple.tuple().addLong(t.organizationId()).addString(t.uuid()).addString(t.name())
                        .addString(t.description()).addString(t.category().wireName()).addString(t.icon())
                        .addString(t.iconColor()).addString(t.status().wireName())
                        .addValue(JsonValues.toJson(JsonTree.asMap(JsonTree.thaw(t.definition()))))
                        .addLong(t.createdBy()).addOffsetDateTime(t.createdAt().atOffset(ZoneOffset.UTC))
                        .addOffsetDateTime(t.updatedAt().atOffset(ZoneOffset.UTC)))
                .map(rows -> stored(rows.iterator().next()));
    }

    @Override
    public Uni<StoredTool> update(Tool t) {
        return pool.preparedQuery("""
                        WITH t AS (UPDATE tools SET name = $3, description = $4, icon = $5, icon_color = $6,
                        status = $7, definition = $8, updated_at = $9 WHERE organization_id = $1 AND uuid = $2
                        RETURNING *) SELECT\s""" + COLUMNS + ", u.provider_id FROM t LEFT JOIN users u"
                        + " ON u.id = t.created_by")
                .execute(Tuple.tuple().addLong(t.organizationId()).addString(t.uuid()).addString(t.name())
                        .addString(t.description()).addString(t.icon()).addString(t.iconColor())
                        .addString(t.status().wireName())
                        .addValue(JsonValues.toJson(JsonTree.asMap(JsonTree.thaw(t.definition()))))
                        .addOffsetDateTime(t.updatedAt().atOffset(ZoneOffset.UTC)))
                .map(rows -> stored(rows.iterator().next()));
    }

    private static StoredTool stored(Row r) {
        Tool tool = new Tool(r.getLong(ID), r.getLong(ORGANIZATION_ID), r.getString(UUID), r.getString(NAME), r.getString(DESCRIPTION),
                ToolCategory.byWireName(r.getString(CATEGORY)).orElseThrow(), r.getString(ICON), r.getString(ICON_COLOR),
                ToolStatus.byWireName(r.getString(STATUS)).orElseThrow(), JsonValues.toMap(r.getValue(DEFINITION)), r.getLong(CREATED_BY),
                r.getOffsetDateTime(CREATED_AT).toInstant(), r.getOffsetDateTime(UPDATED_AT).toInstant());
        return new StoredTool(tool, r.getString(CREATOR_PROVIDER_ID));
    }
}
