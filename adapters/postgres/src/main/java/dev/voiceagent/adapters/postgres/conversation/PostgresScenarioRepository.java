package dev.voiceagent.adapters.postgres.conversation;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.application.conversation.ScenarioRepository;
import dev.voiceagent.domain.conversation.Scenario;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

@DatabaseAccess
@ApplicationScoped
public class PostgresScenarioRepository implements ScenarioRepository {

    private static final String COLUMNS = "workflow_run_id, workflow_id, name, initial_context, steps, created_at,"
            + " updated_at";
    private static final int WORKFLOW_RUN_ID = index(COLUMNS, "workflow_run_id");
    private static final int WORKFLOW_ID = index(COLUMNS, "workflow_id");
    private static final int NAME = index(COLUMNS, "name");
    private static final int INITIAL_CONTEXT = index(COLUMNS, "initial_context");
    private static final int STEPS = index(COLUMNS, "steps");
    private static final int CREATED_AT = index(COLUMNS, "created_at");
    private static final int UPDATED_AT = index(COLUMNS, "updated_at");

    private final Pool pool;

    public PostgresScenarioRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<Scenario> save(long organizationId, Scenario s) {
        return pool.preparedQuery("""
                        INSERT INTO text_chat_scenarios (workflow_run_id, organization_id, workflow_id, name,
                        initial_context, steps, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
                        ON CONFLICT (workflow_run_id) DO UPDATE SET name = excluded.name, initial_context =
                        excluded.initial_context, steps = excluded.steps, updated_at = excluded.updated_at""")
                .execute(Tuple.tuple().addLong(s.runId()).addLong(organizationId).addLong(s.workflowId())
                        .addString(s.name()).addValue(JsonValues.toJson(s.initialContext()))
                        .addValue(JsonValues.toJsonArray(s.stepsToMaps()))
                        .addOffsetDateTime(s.createdAt().atOffset(ZoneOffset.UTC))
                        .addOffsetDateTime(s.updatedAt().atOffset(ZoneOffset.UTC)))
                .replaceWith(s);
    }

    @Override
    public Uni<Optional<Scenario>> find(long organizationId, long workflowId, long runId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM text_chat_scenarios WHERE organization_id = $1"
                        + " AND workflow_id = $2 AND workflow_run_id = $3").execute(Tuple.of(organizationId, workflowId, runId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(scenario(rows.iterator().next())));
    }

    @Override
    public Uni<List<Scenario>> list(long organizationId, long workflowId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM text_chat_scenarios WHERE organization_id = $1"
                        + " AND workflow_id = $2 ORDER BY created_at, workflow_run_id")
                .execute(Tuple.of(organizationId, workflowId)).map(rows -> {
                    List<Scenario> out = new ArrayList<>();
                    rows.forEach(r -> out.add(scenario(r)));
                    return out;
                });
    }

    @Override
    public Uni<Boolean> delete(long organizationId, long workflowId, long runId) {
        return pool.preparedQuery("""
                        DELETE FROM text_chat_scenarios WHERE organization_id = $1 AND workflow_id = $2
                        AND workflow_run_id = $3""").execute(Tuple.of(organizationId, workflowId, runId))
                .map(rows -> rows.rowCount() > 0);
    }

    private static Scenario scenario(Row r) {
        return new Scenario(r.getLong(WORKFLOW_RUN_ID), r.getLong(WORKFLOW_ID), r.getString(NAME), JsonValues.toMap(r.getValue(INITIAL_CONTEXT)),
                Scenario.stepsFromMaps(JsonValues.toList(r.getValue(STEPS))), instant(r.getOffsetDateTime(CREATED_AT)),
                instant(r.getOffsetDateTime(UPDATED_AT)));
    }
}
