package dev.voiceagent.adapters.postgres.workflow;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.Rows;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.utc;
import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;

import dev.voiceagent.adapters.postgres.shared.Columns;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.shared.UniqueViolation;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.workflow.InvalidWorkflowException;
import dev.voiceagent.application.workflow.WorkflowCounts;
import dev.voiceagent.application.workflow.WorkflowListItem;
import dev.voiceagent.application.workflow.WorkflowRepository;
import dev.voiceagent.domain.workflow.VersionStatus;
import dev.voiceagent.domain.workflow.Workflow;
import dev.voiceagent.domain.workflow.WorkflowDefinition;
import dev.voiceagent.domain.workflow.WorkflowError;
import dev.voiceagent.domain.workflow.WorkflowStatus;
import dev.voiceagent.domain.workflow.WorkflowValidator;
import dev.voiceagent.domain.workflow.WorkflowVersion;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/** Workflows and their versions on the reactive PG client; every multi-row change in one transaction. */
@DatabaseAccess
@ApplicationScoped
public class PostgresWorkflowRepository implements WorkflowRepository {

    private static final String VERSION_COLUMNS = "d.id, d.version_number, d.status, d.workflow_json, "
            + "d.workflow_configurations, d.template_context_variables, d.created_at, d.published_at";

    private static final String WORKFLOW_COLUMNS = "w.id, w.organization_id, w.workflow_uuid, w.created_by, w.name,"
            + " w.status, w.folder_id, w.created_at";
    /** A workflow's row with one of its versions: the workflow's columns, then the version's, at derived indexes. */
    private static final String FIND = "SELECT " + WORKFLOW_COLUMNS + ", " + VERSION_COLUMNS
            + " FROM workflows w JOIN workflow_definitions d ON d.workflow_id = w.id AND d.status IN ('published', 'draft')"
            + " WHERE w.organization_id = $1 AND w.id = $2";
    private static final int W_ID = index(WORKFLOW_COLUMNS, "w.id");
    private static final int W_ORGANIZATION_ID = index(WORKFLOW_COLUMNS, "w.organization_id");
    private static final int W_UUID = index(WORKFLOW_COLUMNS, "w.workflow_uuid");
    private static final int W_CREATED_BY = index(WORKFLOW_COLUMNS, "w.created_by");
    private static final int W_NAME = index(WORKFLOW_COLUMNS, "w.name");
    private static final int W_STATUS = index(WORKFLOW_COLUMNS, "w.status");
    private static final int W_FOLDER_ID = index(WORKFLOW_COLUMNS, "w.folder_id");
    private static final int W_CREATED_AT = index(WORKFLOW_COLUMNS, "w.created_at");
    private static final int VERSION_AT = Columns.count(WORKFLOW_COLUMNS);
    private static final int V_ID = index(VERSION_COLUMNS, "d.id");
    private static final int V_NUMBER = index(VERSION_COLUMNS, "d.version_number");
    private static final int V_STATUS = index(VERSION_COLUMNS, "d.status");
    private static final int V_JSON = index(VERSION_COLUMNS, "d.workflow_json");
    private static final int V_CONFIGURATIONS = index(VERSION_COLUMNS, "d.workflow_configurations");
    private static final int V_TEMPLATE = index(VERSION_COLUMNS, "d.template_context_variables");
    private static final int V_CREATED_AT = index(VERSION_COLUMNS, "d.created_at");
    private static final int V_PUBLISHED_AT = index(VERSION_COLUMNS, "d.published_at");

    private static final String INSERT_WORKFLOW = """
            INSERT INTO workflows (organization_id, name, status, workflow_uuid,
            created_by, folder_id, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id""";

    private static final String INSERT_VERSION = """
            INSERT INTO workflow_definitions (organization_id, workflow_id,
            version_number, status, workflow_json, workflow_configurations, template_context_variables, created_at,
            published_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id""";

    private static final String LIST = """
            SELECT w.id, w.name, w.status, w.created_at, w.folder_id, w.workflow_uuid,
            (SELECT count(*) FROM workflow_runs r WHERE r.organization_id = w.organization_id AND r.workflow_id = w.id)
            AS total_runs FROM workflows w WHERE w.organization_id = $1 AND (cardinality($2::text[]) = 0 OR w.status =
            ANY($2))
            ORDER BY w.created_at DESC, w.id DESC""";

    private final Pool pool;

    public PostgresWorkflowRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Workflow> insert(Workflow w) {
        long org = w.organizationId();
        return pool.withTransaction(tx -> tx.preparedQuery(INSERT_WORKFLOW)
                        .execute(Tuple.tuple().addLong(org).addString(w.name()).addString(w.status().wireName())
                                .addUUID(w.workflowUuid()).addLong(w.createdBy()).addLong(w.folderId())
                                .addOffsetDateTime(utc(w.createdAt())))
                        .map(rows -> rows.iterator().next().getLong("id"))
                        .chain(id -> insertVersion(tx, org, id, w.published()).chain(published ->
                                (w.draft() == null ? Uni.createFrom().<WorkflowVersion>nullItem()
                                        : insertVersion(tx, org, id, w.draft()))
                                        .map(draft -> new Workflow(id, org, w.workflowUuid(), w.createdBy(), w.name(),
                                                w.status(), w.folderId(), w.createdAt(), published, draft))))
                        .call(stored -> replaceTriggerPaths(tx, stored)))
                .onFailure(f -> UniqueViolation.of(f, "workflow_trigger_paths_pkey"))
                .transform(PostgresWorkflowRepository::triggerConflict);
    }

    private static Throwable triggerConflict(Throwable failure) {
        return new InvalidWorkflowException(List.of(WorkflowError.node(null, "data.trigger_path",
                WorkflowValidator.TRIGGER_IN_USE)), true);
    }

    private static Uni<WorkflowVersion> insertVersion(SqlClient client, long organizationId, long workflowId,
            WorkflowVersion v) {
        return client.preparedQuery(INSERT_VERSION).execute(Tuple.tuple().addLong(organizationId).addLong(workflowId)
                        .addInteger(v.versionNumber()).addString(v.status().wireName())
                        .addValue(JsonValues.toJson(v.definition().tree())).addValue(JsonValues.toJson(v.configurations()))
                        .addValue(JsonValues.toJson(v.templateContextVariables())).addOffsetDateTime(utc(v.createdAt()))
                        .addOffsetDateTime(utc(v.publishedAt())))
                .map(rows -> withId(v, rows.iterator().next().getLong("id")));
    }

    private static WorkflowVersion withId(WorkflowVersion v, Long id) {
        return id == null ? v : new WorkflowVersion(id, v.versionNumber(), v.status(), v.definition(), v.configurations(),
                v.templateContextVariables(), v.createdAt(), v.publishedAt());
    }

    @Override
    public Uni<Optional<Workflow>> find(long organizationId, long workflowId) {
        return pool.preparedQuery(FIND).execute(Tuple.of(organizationId, workflowId)).map(rows -> {
            Row first = null;
            WorkflowVersion published = null;
            WorkflowVersion draft = null;
            for (Row row : rows) {
                first = row;
                WorkflowVersion version = version(row, VERSION_AT);
                if (version.status() == VersionStatus.PUBLISHED) {
                    published = version;
                } else {
                    draft = version;
                }
            }
            if (first == null || published == null) {
                return Optional.empty();
            }
            return Optional.of(new Workflow(first.getLong(W_ID), first.getLong(W_ORGANIZATION_ID), first.getUUID(W_UUID),
                    first.getLong(W_CREATED_BY), first.getString(W_NAME),
                    WorkflowStatus.fromWireName(first.getString(W_STATUS)).orElseThrow(), first.getLong(W_FOLDER_ID),
                    instant(first.getOffsetDateTime(W_CREATED_AT)), published, draft));
        });
    }

    /** A version whose {@link #VERSION_COLUMNS} start at {@code offset} in the row. */
    private static WorkflowVersion version(Row row, int offset) {
        return new WorkflowVersion(row.getLong(offset + V_ID), row.getInteger(offset + V_NUMBER),
                VersionStatus.fromWireName(row.getString(offset + V_STATUS)),
                WorkflowDefinition.of(JsonValues.toMap(row.getValue(offset + V_JSON))),
                JsonValues.toMap(row.getValue(offset + V_CONFIGURATIONS)),
                JsonValues.toMap(row.getValue(offset + V_TEMPLATE)), instant(row.getOffsetDateTime(offset + V_CREATED_AT)),
                instant(row.getOffsetDateTime(offset + V_PUBLISHED_AT)));
    }

    @Override
    public Uni<Workflow> save(Workflow before, Workflow after) {
        boolean published = !Objects.equals(before.published().id(), after.published().id());
        boolean versionsChanged = published || !Objects.equals(before.draft(), after.draft());
        return pool.withTransaction(tx -> tx.preparedQuery("""
                                UPDATE workflows SET name = $1, status = $2, folder_id = $3,
                                updated_at = now() WHERE organization_id = $4 AND id = $5""")
                        .execute(Tuple.tuple().addString(after.name()).addString(after.status().wireName())
                                .addLong(after.folderId()).addLong(after.organizationId()).addLong(after.id()))
                        .chain(() -> published ? publish(tx, after) : Uni.createFrom().voidItem())
                        .chain(() -> saveDraft(tx, before, after))
                        .chain(draft -> {
                            Workflow saved = new Workflow(after.id(), after.organizationId(), after.workflowUuid(),
                                    after.createdBy(), after.name(), after.status(), after.folderId(), after.createdAt(),
                                    after.published(), draft);
                            return versionsChanged ? replaceTriggerPaths(tx, saved).replaceWith(saved)
                                    : Uni.createFrom().item(saved);
                        }))
                .onFailure(f -> UniqueViolation.of(f, "workflow_trigger_paths_pkey"))
                .transform(PostgresWorkflowRepository::triggerConflict)
                .onFailure(f -> UniqueViolation.of(f, null))
                .transform(f -> new ConflictException("The workflow was changed by another request; please retry"));
    }

    private static Uni<Void> publish(SqlClient tx, Workflow after) {
        return tx.preparedQuery("""
                        UPDATE workflow_definitions SET status = 'archived' WHERE workflow_id = $1
                        AND status = 'published'""").execute(Tuple.of(after.id()))
                .chain(() -> tx.preparedQuery("""
                                UPDATE workflow_definitions SET status = 'published', published_at = $1
                                WHERE workflow_id = $2 AND id = $3""")
                        .execute(Tuple.of(utc(after.published().publishedAt()), after.id(), after.published().id())))
                .replaceWithVoid();
    }

    private static Uni<WorkflowVersion> saveDraft(SqlClient tx, Workflow before, Workflow after) {
        WorkflowVersion draft = after.draft();
        if (draft == null || draft.equals(before.draft())) {
            return Uni.createFrom().item(draft);
        }
        if (draft.id() == null) {
            return insertVersion(tx, after.organizationId(), after.id(), draft);
        }
        return tx.preparedQuery("""
                        UPDATE workflow_definitions SET workflow_json = $1, workflow_configurations = $2,
                        template_context_variables = $3 WHERE workflow_id = $4 AND id = $5 AND status = 'draft'""")
                .execute(Tuple.tuple().addValue(JsonValues.toJson(draft.definition().tree()))
                        .addValue(JsonValues.toJson(draft.configurations()))
                        .addValue(JsonValues.toJson(draft.templateContextVariables())).addLong(after.id()).addLong(draft.id()))
                .replaceWith(draft);
    }

    private static Uni<Void> replaceTriggerPaths(SqlClient client, Workflow workflow) {
        Set<String> paths = new LinkedHashSet<>(workflow.published().definition().triggerPaths());
        if (workflow.draft() != null) {
            paths.addAll(workflow.draft().definition().triggerPaths());
        }
        Uni<Void> cleared = client.preparedQuery("DELETE FROM workflow_trigger_paths WHERE workflow_id = $1")
                .execute(Tuple.of(workflow.id())).replaceWithVoid();
        if (paths.isEmpty()) {
            return cleared;
        }
        List<Tuple> rows = paths.stream().map(p -> Tuple.of(workflow.organizationId(), p, workflow.id())).toList();
        return cleared.chain(() -> client.preparedQuery("""
                INSERT INTO workflow_trigger_paths (organization_id,
                trigger_path, workflow_id) VALUES ($1, $2, $3)""").executeBatch(rows)).replaceWithVoid();
    }

    @Override
    public Uni<Integer> nextVersionNumber(long workflowId) {
        return pool.preparedQuery("""
                        SELECT coalesce(max(version_number), 0) + 1 AS next FROM workflow_definitions
                        WHERE workflow_id = $1""")
                .execute(Tuple.of(workflowId)).map(rows -> rows.iterator().next().getInteger("next"));
    }

    @Override
    public Uni<List<WorkflowListItem>> list(long organizationId, Set<WorkflowStatus> statuses) {
        String[] wanted = statuses.stream().map(WorkflowStatus::wireName).toArray(String[]::new);
        return pool.preparedQuery(LIST).execute(Tuple.of(organizationId, wanted)).map(rows -> {
            List<WorkflowListItem> items = new ArrayList<>(rows.size());
            for (Row r : rows) {
                items.add(new WorkflowListItem(r.getLong("id"), r.getString("name"),
                        WorkflowStatus.fromWireName(r.getString("status")).orElseThrow(),
                        instant(r.getOffsetDateTime("created_at")), r.getLong("total_runs"), r.getLong("folder_id"),
                        r.getUUID("workflow_uuid")));
            }
            return items;
        });
    }

    @Override
    public Uni<WorkflowCounts> count(long organizationId) {
        return pool.preparedQuery("""
                        SELECT count(*) AS total, count(*) FILTER (WHERE status = 'active') AS active,
                        count(*) FILTER (WHERE status = 'archived') AS archived FROM workflows
                        WHERE organization_id = $1""")
                .execute(Tuple.of(organizationId)).map(rows -> {
                    Row r = rows.iterator().next();
                    return new WorkflowCounts(r.getLong("total"), r.getLong("active"), r.getLong("archived"));
                });
    }

    @Override
    public Uni<Long> totalRuns(long organizationId, long workflowId) {
        return pool.preparedQuery("""
                        SELECT count(*) AS runs FROM workflow_runs WHERE organization_id = $1
                        AND workflow_id = $2""")
                .execute(Tuple.of(organizationId, workflowId)).map(rows -> rows.iterator().next().getLong("runs"));
    }

    @Override
    public Uni<Set<String>> triggerPathsInUse(long organizationId, Long exceptWorkflowId) {
        return pool.preparedQuery("""
                        SELECT trigger_path FROM workflow_trigger_paths WHERE organization_id = $1
                        AND ($2::bigint IS NULL OR workflow_id <> $2)""")
                .execute(Tuple.of(organizationId, exceptWorkflowId)).map(rows -> {
                    Set<String> paths = new LinkedHashSet<>();
                    rows.forEach(r -> paths.add(r.getString("trigger_path")));
                    return paths;
                });
    }

    @Override
    public Uni<Optional<Long>> findIdByTriggerPath(long organizationId, String triggerPath) {
        return pool.preparedQuery("""
                        SELECT workflow_id FROM workflow_trigger_paths WHERE organization_id = $1
                        AND trigger_path = $2""").execute(Tuple.of(organizationId, triggerPath))
                .map(rows -> rows.size() == 0 ? Optional.empty()
                        : Optional.of(rows.iterator().next().getLong("workflow_id")));
    }

    @Override
    public Uni<Optional<Long>> findIdByUuid(long organizationId, UUID workflowUuid) {
        return pool.preparedQuery("SELECT id FROM workflows WHERE organization_id = $1 AND workflow_uuid = $2")
                .execute(Tuple.of(organizationId, workflowUuid))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(rows.iterator().next().getLong("id")));
    }

    @Override
    public Uni<Optional<WorkflowVersion>> findVersion(long organizationId, long workflowId, long definitionId) {
        return pool.preparedQuery("SELECT " + VERSION_COLUMNS + " FROM workflow_definitions d"
                        + " WHERE d.organization_id = $1 AND d.workflow_id = $2 AND d.id = $3")
                .execute(Tuple.of(organizationId, workflowId, definitionId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(version(rows.iterator().next(), 0)));
    }

    @Override
    public Uni<List<WorkflowVersion>> versions(long organizationId, long workflowId, int limit, int offset) {
        return pool.preparedQuery("SELECT " + VERSION_COLUMNS + " FROM workflow_definitions d"
                        + " WHERE d.organization_id = $1 AND d.workflow_id = $2 ORDER BY d.version_number DESC LIMIT $3 OFFSET $4")
                .execute(Tuple.of(organizationId, workflowId, limit, offset)).map(rows -> Rows.list(rows, r -> version(r, 0)));
    }

}
