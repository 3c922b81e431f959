package dev.voiceagent.adapters.postgres.voice;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.adapters.postgres.shared.Rows;
import dev.voiceagent.application.voice.VoiceCloneRepository;
import dev.voiceagent.domain.voice.VoiceClone;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;

@DatabaseAccess
@ApplicationScoped
public class PostgresVoiceCloneRepository implements VoiceCloneRepository {

    private static final String COLUMNS = "id, organization_id, name, description, provider, provider_voice_id, status,"
            + " recording_ids, created_by, created_at";
    private static final int ID = index(COLUMNS, "id");
    private static final int ORGANIZATION_ID = index(COLUMNS, "organization_id");
    private static final int NAME = index(COLUMNS, "name");
    private static final int DESCRIPTION = index(COLUMNS, "description");
    private static final int PROVIDER = index(COLUMNS, "provider");
    private static final int PROVIDER_VOICE_ID = index(COLUMNS, "provider_voice_id");
    private static final int STATUS = index(COLUMNS, "status");
    private static final int RECORDING_IDS = index(COLUMNS, "recording_ids");
    private static final int CREATED_BY = index(COLUMNS, "created_by");
    private static final int CREATED_AT = index(COLUMNS, "created_at");
    /** The clone id a version's configuration names, or null (a value that is not a number names none). */
    private static final String CLONE_ID = "CASE WHEN (%1$s.workflow_configurations -> 'voice' ->> 'clone_id') ~ '^[0-9]{1,18}$'"
            + " THEN (%1$s.workflow_configurations -> 'voice' ->> 'clone_id')::bigint END";

    private final Pool pool;

    public PostgresVoiceCloneRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<List<VoiceClone>> list(long organizationId) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM voice_clones WHERE organization_id = $1"
                        + " ORDER BY created_at DESC, id DESC").execute(Tuple.of(organizationId))
                .map(rows -> Rows.list(rows, PostgresVoiceCloneRepository::clone));
    }

    @Override
    public Uni<Optional<VoiceClone>> find(long organizationId, long id) {
        return pool.preparedQuery("SELECT " + COLUMNS + " FROM voice_clones WHERE organization_id = $1 AND id = $2")
                .execute(Tuple.of(organizationId, id))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(clone(rows.iterator().next())));
    }

    @Override
    public Uni<VoiceClone> insert(VoiceClone c) {
        return pool.preparedQuery("""
                        INSERT INTO voice_clones (organization_id, name, description, provider,
                        provider_voice_id, status, recording_ids, created_by, created_at)
                        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING\s""" + COLUMNS)
                .execute(Tuple.tuple().addLong(c.organizationId()).addString(c.name()).addString(c.description())
                        .addString(c.provider()).addString(c.providerVoiceId()).addString(c.status())
                        .addValue(JsonValues.toJsonArray(c.recordingIds())).addLong(c.createdBy())
                        .addOffsetDateTime(c.createdAt().atOffset(ZoneOffset.UTC)))
                .map(rows -> clone(rows.iterator().next()));
    }

    @Override
    public Uni<List<String>> deleteUnlessUsed(long organizationId, long id) {
        return pool.preparedQuery("""
                        WITH users AS (SELECT w.name FROM workflow_definitions p JOIN workflows w
                        ON w.id = p.workflow_id WHERE p.organization_id = $1 AND p.status = 'published'
                        AND\s""" + CLONE_ID.formatted("p") + " = $2),"
                        + " gone AS (DELETE FROM voice_clones WHERE organization_id = $1 AND id = $2"
                        + " AND NOT EXISTS (SELECT 1 FROM users) RETURNING id) SELECT name FROM users ORDER BY name")
                .execute(Tuple.of(organizationId, id)).map(rows -> Rows.list(rows, r -> r.getString("name")));
    }

    @Override
    public Uni<List<AgentVoice>> agents(long organizationId) {
        return pool.preparedQuery("SELECT w.id, w.name, " + CLONE_ID.formatted("d") + " AS draft_clone_id, "
                        + CLONE_ID.formatted("p") + " AS published_clone_id"
                        + ", coalesce(d.workflow_configurations -> 'voice' ->> 'voice_id',"
                        + " p.workflow_configurations -> 'voice' ->> 'voice_id') AS voice_id FROM workflows w"
                        + " LEFT JOIN workflow_definitions d ON d.workflow_id = w.id AND d.status = 'draft'"
                        + " LEFT JOIN workflow_definitions p ON p.workflow_id = w.id AND p.status = 'published'"
                        + " WHERE w.organization_id = $1 AND (d.workflow_configurations ? 'voice'"
                        + " OR p.workflow_configurations ? 'voice') ORDER BY w.name, w.id")
                .execute(Tuple.of(organizationId))
                .map(rows -> Rows.list(rows, r -> new AgentVoice(r.getLong("id"), r.getString("name"),
                        r.getLong("draft_clone_id"), r.getLong("published_clone_id"), r.getString("voice_id"))));
    }

    private static VoiceClone clone(Row r) {
        List<String> recordings = JsonValues.toList(r.getValue(RECORDING_IDS)).stream().map(String::valueOf).toList();
        return new VoiceClone(r.getLong(ID), r.getLong(ORGANIZATION_ID), r.getString(NAME), r.getString(DESCRIPTION), r.getString(PROVIDER),
                r.getString(PROVIDER_VOICE_ID), r.getString(STATUS), recordings, r.getLong(CREATED_BY), r.getOffsetDateTime(CREATED_AT).toInstant());
    }
}
