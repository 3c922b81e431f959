package dev.voiceagent.adapters.postgres.folder;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.Rows;
import dev.voiceagent.adapters.postgres.shared.UniqueViolation;
import dev.voiceagent.application.folder.FolderRepository;
import dev.voiceagent.application.shared.ConflictException;
import dev.voiceagent.domain.folder.Folder;
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
public class PostgresFolderRepository implements FolderRepository {

    static final String NAME_TAKEN = "A folder with this name already exists";
    private static final String UNIQUE_NAME = "folders_organization_name_key";

    private final Pool pool;

    public PostgresFolderRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<List<Folder>> list(long organizationId) {
        return pool.preparedQuery("""
                SELECT id, organization_id, name, created_at FROM folders WHERE organization_id = $1
                ORDER BY lower(name), id""").execute(Tuple.of(organizationId)).map(rows -> Rows.list(rows, PostgresFolderRepository::folder));
    }

    @Override
    public Uni<Optional<Folder>> find(long organizationId, long folderId) {
        return pool.preparedQuery("""
                SELECT id, organization_id, name, created_at FROM folders WHERE organization_id = $1
                AND id = $2""").execute(Tuple.of(organizationId, folderId))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(folder(rows.iterator().next())));
    }

    @Override
    public Uni<Folder> insert(Folder folder) {
        return pool.preparedQuery("""
                        INSERT INTO folders (organization_id, name, created_at) VALUES ($1, $2, $3)
                        RETURNING id, organization_id, name, created_at""")
                .execute(Tuple.of(folder.organizationId(), folder.name(), folder.createdAt().atOffset(ZoneOffset.UTC)))
                .map(rows -> folder(rows.iterator().next()))
                .onFailure(f -> UniqueViolation.of(f, UNIQUE_NAME)).transform(f -> new ConflictException(NAME_TAKEN));
    }

    @Override
    public Uni<Folder> update(Folder folder) {
        return pool.preparedQuery("""
                        UPDATE folders SET name = $1 WHERE organization_id = $2 AND id = $3
                        RETURNING id, organization_id, name, created_at""")
                .execute(Tuple.of(folder.name(), folder.organizationId(), folder.id()))
                .map(rows -> folder(rows.iterator().next()))
                .onFailure(f -> UniqueViolation.of(f, UNIQUE_NAME)).transform(f -> new ConflictException(NAME_TAKEN));
    }

    @Override
    public Uni<Void> delete(long organizationId, long folderId) {
        // workflows_folder_fk is ON DELETE SET NULL (folder_id): the workflows stay, unfiled
        return pool.preparedQuery("DELETE FROM folders WHERE organization_id = $1 AND id = $2")
                .execute(Tuple.of(organizationId, folderId)).replaceWithVoid();
    }

    private static Folder folder(Row r) {
        return new Folder(r.getLong("id"), r.getLong("organization_id"), r.getString("name"),
                r.getOffsetDateTime("created_at").toInstant());
    }
}
