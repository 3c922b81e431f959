package dev.voiceagent.adapters.postgres.recording;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.shared.Rows;
import dev.voiceagent.adapters.postgres.shared.UniqueViolation;
import dev.voiceagent.application.recording.RecordingRepository;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.application.shared.ResourceNotFoundException;
import dev.voiceagent.domain.recording.Recording;
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
public class PostgresRecordingRepository implements RecordingRepository {

    private static final String UNIQUE = "recordings_organization_recording_key";
    private static final String COLUMNS = "id, organization_id, recording_id, workflow_id, tts_provider, tts_model,"
            + " tts_voice_id, transcript, storage_key, storage_backend, metadata, created_by, created_at, is_active";
    private static final int ID = index(COLUMNS, "id");
    private static final int ORGANIZATION_ID = index(COLUMNS, "organization_id");
    private static final int RECORDING_ID = index(COLUMNS, "recording_id");
    private static final int WORKFLOW_ID = index(COLUMNS, "workflow_id");
    private static final int TTS_PROVIDER = index(COLUMNS, "tts_provider");
    private static final int TTS_MODEL = index(COLUMNS, "tts_model");
    private static final int TTS_VOICE_ID = index(COLUMNS, "tts_voice_id");
    private static final int TRANSCRIPT = index(COLUMNS, "transcript");
    private static final int STORAGE_KEY = index(COLUMNS, "storage_key");
    private static final int STORAGE_BACKEND = index(COLUMNS, "storage_backend");
    private static final int METADATA = index(COLUMNS, "metadata");
    private static final int CREATED_BY = index(COLUMNS, "created_by");
    private static final int CREATED_AT = index(COLUMNS, "created_at");
    private static final int IS_ACTIVE = index(COLUMNS, "is_active");

    private final Pool pool;

    public PostgresRecordingRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<List<Recording>> list(long organizationId, Filter f) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM recordings WHERE organization_id = $1 AND is_active"
                        + " AND ($2::bigint IS NULL OR workflow_id = $2) AND ($3::text IS NULL OR tts_provider = $3)"
                        + " AND ($4::text IS NULL OR tts_model = $4) AND ($5::text IS NULL OR tts_voice_id = $5)"
                        + " ORDER BY created_at DESC, id DESC")
                .execute(Tuple.from(new Object[] {organizationId, f.workflowId(), f.ttsProvider(), f.ttsModel(),
                    f.ttsVoiceId()}))
                .map(rows -> Rows.list(rows, PostgresRecordingRepository::recording));
    }

    @Override
    public Uni<Optional<Recording>> find(long organizationId, long id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM recordings WHERE organization_id = $1 AND id = $2"
                        + " AND is_active").execute(Tuple.of(organizationId, id))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(recording(rows.iterator().next())));
    }

    @Override
    public Uni<Optional<Recording>> findByRecordingId(long organizationId, String recordingId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM recordings WHERE organization_id = $1"
                        + " AND recording_id = $2 AND is_active").execute(Tuple.of(organizationId, recordingId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(recording(rows.iterator().next())));
    }

    @Override
    public Uni<List<Recording>> insertAll(List<Recording> recordings) {
        List<Tuple> batch = new ArrayList<>();
        for (Recording r : recordings) {
            batch.add(Tuple.from(new Object[] {r.organizationId(), r.recordingId(), r.workflowId(), r.ttsProvider(),
                r.ttsModel(), r.ttsVoiceId(), r.transcript(), r.storageKey(), r.storageBackend(),
                JsonValues.toJson(r.metadata()), r.createdBy(), r.createdAt().atOffset(ZoneOffset.UTC)}));
        }
        // a batch is one statement: all rows or none
        return pool.withTransaction(tx -> tx.preparedQuery("""
                        INSERT INTO recordings (organization_id, recording_id,
                        workflow_id, tts_provider, tts_model, tts_voice_id, transcript, storage_key, storage_backend,
                        metadata, created_by, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
                        RETURNING\s""" + COLUMNS).executeBatch(batch))
                .map(rows -> {
                    List<Recording> out = new ArrayList<>();
                    for (var set = rows; set != null; set = set.next()) {
                        set.forEach(r -> out.add(recording(r)));
                    }
                    return out;
                })
                .onFailure(f -> UniqueViolation.of(f, UNIQUE))
                .transform(f -> new ConflictException("A recording with this recording_id already exists"));
    }

    @Override
    public Uni<Recording> rename(long organizationId, long id, String recordingId) {
        return pool.preparedQuery("""
                        UPDATE recordings SET recording_id = $3 WHERE organization_id = $1 AND id = $2
                        AND is_active RETURNING\s""" + COLUMNS).execute(Tuple.of(organizationId, id, recordingId))
                .map(rows -> {
                    if (rows.size() == 0) { // deleted meanwhile
                        throw new ResourceNotFoundException("Recording not found");
                    }
                    return recording(rows.iterator().next());
                })
                .onFailure(f -> UniqueViolation.of(f, UNIQUE))
                .transform(f -> new ConflictException("A recording with this recording_id already exists"));
    }

    @Override
    public Uni<List<String>> deactivateUnlessUsed(long organizationId, String recordingId) {
        // a published definition names the recording when any of its string values is the id
        return pool.preparedQuery("""
                        WITH users AS (SELECT w.name FROM workflow_definitions d JOIN workflows w
                        ON w.id = d.workflow_id WHERE d.organization_id = $1 AND d.status = 'published'
                        AND jsonb_path_exists(d.workflow_json, '$.** ? (@ == $id)', jsonb_build_object('id',
                        $2::text))),
                        gone AS (UPDATE recordings SET is_active = false WHERE organization_id = $1
                        AND recording_id = $2 AND is_active AND NOT EXISTS (SELECT 1 FROM users) RETURNING id)
                        SELECT name FROM users ORDER BY name""")
                .execute(Tuple.of(organizationId, recordingId)).map(rows -> Rows.list(rows, r -> r.getString("name")));
    }

    private static Recording recording(Row r) {
        return new Recording(r.getLong(ID), r.getLong(ORGANIZATION_ID), r.getString(RECORDING_ID), r.getLong(WORKFLOW_ID), r.getString(TTS_PROVIDER), r.getString(TTS_MODEL),
                r.getString(TTS_VOICE_ID), r.getString(TRANSCRIPT), r.getString(STORAGE_KEY), r.getString(STORAGE_BACKEND), JsonValues.toMap(r.getValue(METADATA)),
                r.getLong(CREATED_BY), r.getOffsetDateTime(CREATED_AT).toInstant(), r.getBoolean(IS_ACTIVE));
    }
}
