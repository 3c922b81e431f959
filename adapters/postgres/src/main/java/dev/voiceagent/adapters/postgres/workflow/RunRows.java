package dev.voiceagent.adapters.postgres.workflow;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;

import dev.voiceagent.adapters.postgres.shared.Columns;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.domain.workflow.WorkflowRun;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.SqlClient;
import io.vertx.mutiny.sqlclient.Tuple;
import java.time.ZoneOffset;

/**
 * The workflow_runs columns, spelled once, with their one reader and their one insert. Every statement that returns
 * runs selects {@link #COLUMNS} (qualified with {@link Columns#prefixed} in a join) and reads them with
 * {@link #read(Row, int)}, from where they start in the row; the indexes come from the list, not from counting.
 */
public final class RunRows {

    public static final String COLUMNS = "id, organization_id, workflow_id, definition_id, name, mode, call_type, state,"
            + " is_completed, recording_url, transcript_url, usage_info, cost_info, initial_context, gathered_context,"
            + " logs, annotations, campaign_id, created_at";
    /** How many columns a run takes in a row: where the next table's columns start. */
    public static final int COUNT = Columns.count(COLUMNS);

    private static final int ID = index(COLUMNS, "id");
    private static final int ORGANIZATION_ID = index(COLUMNS, "organization_id");
    private static final int WORKFLOW_ID = index(COLUMNS, "workflow_id");
    private static final int DEFINITION_ID = index(COLUMNS, "definition_id");
    private static final int NAME = index(COLUMNS, "name");
    private static final int MODE = index(COLUMNS, "mode");
    private static final int CALL_TYPE = index(COLUMNS, "call_type");
    private static final int STATE = index(COLUMNS, "state");
    private static final int IS_COMPLETED = index(COLUMNS, "is_completed");
    private static final int RECORDING_URL = index(COLUMNS, "recording_url");
    private static final int TRANSCRIPT_URL = index(COLUMNS, "transcript_url");
    private static final int USAGE_INFO = index(COLUMNS, "usage_info");
    private static final int COST_INFO = index(COLUMNS, "cost_info");
    private static final int INITIAL_CONTEXT = index(COLUMNS, "initial_context");
    private static final int GATHERED_CONTEXT = index(COLUMNS, "gathered_context");
    private static final int LOGS = index(COLUMNS, "logs");
    private static final int ANNOTATIONS = index(COLUMNS, "annotations");
    private static final int CAMPAIGN_ID = index(COLUMNS, "campaign_id");
    private static final int CREATED_AT = index(COLUMNS, "created_at");

    /** Inserts a run and returns it as stored (all columns); one tuple per run, so it batches. */
    public static final String INSERT = """
            INSERT INTO workflow_runs (organization_id, workflow_id, definition_id, name, mode, call_type, state,
                                       is_completed, recording_url, transcript_url, usage_info, cost_info,
                                       initial_context, gathered_context, logs, annotations, campaign_id, created_at)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
            RETURNING\s""" + COLUMNS;

    private RunRows() {
    }

    /** Inserts within the caller's transaction (a call reservation stores its run with the call). */
    public static Uni<WorkflowRun> insert(SqlClient client, WorkflowRun r) {
        return client.preparedQuery(INSERT).execute(insertTuple(r)).map(rows -> read(rows.iterator().next(), 0));
    }

    public static Tuple insertTuple(WorkflowRun r) {
        return Tuple.tuple().addLong(r.organizationId()).addLong(r.workflowId()).addLong(r.definitionId())
                .addString(r.name()).addString(r.mode()).addString(r.callType()).addString(r.state())
                .addBoolean(r.completed()).addString(r.recordingUrl()).addString(r.transcriptUrl())
                .addValue(JsonValues.toJson(r.usageInfo())).addValue(JsonValues.toJson(r.costInfo()))
                .addValue(JsonValues.toJson(r.initialContext())).addValue(JsonValues.toJson(r.gatheredContext()))
                .addValue(JsonValues.toJson(r.logs())).addValue(JsonValues.toJson(r.annotations()))
                .addLong(r.campaignId()).addOffsetDateTime(r.createdAt().atOffset(ZoneOffset.UTC));
    }

    /** A run whose {@link #COLUMNS} start at {@code offset} in the row. */
    public static WorkflowRun read(Row r, int offset) {
        return new WorkflowRun(r.getLong(offset + ID), r.getLong(offset + ORGANIZATION_ID),
                r.getLong(offset + WORKFLOW_ID), r.getLong(offset + DEFINITION_ID), r.getString(offset + NAME),
                r.getString(offset + MODE), r.getString(offset + CALL_TYPE), r.getString(offset + STATE),
                r.getBoolean(offset + IS_COMPLETED), r.getString(offset + RECORDING_URL),
                r.getString(offset + TRANSCRIPT_URL), JsonValues.toMap(r.getValue(offset + USAGE_INFO)),
                JsonValues.toMap(r.getValue(offset + COST_INFO)), JsonValues.toMap(r.getValue(offset + INITIAL_CONTEXT)),
                JsonValues.toMap(r.getValue(offset + GATHERED_CONTEXT)), JsonValues.toMap(r.getValue(offset + LOGS)),
                JsonValues.toMap(r.getValue(offset + ANNOTATIONS)), r.getLong(offset + CAMPAIGN_ID),
                r.getOffsetDateTime(offset + CREATED_AT).toInstant());
    }
}
