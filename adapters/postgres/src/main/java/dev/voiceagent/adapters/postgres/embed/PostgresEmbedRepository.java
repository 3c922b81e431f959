package dev.voiceagent.adapters.postgres.embed;

import static dev.voiceagent.adapters.postgres.shared.Columns.index;
import static dev.voiceagent.adapters.postgres.shared.Timestamps.instant;

import dev.voiceagent.adapters.postgres.shared.DatabaseAccess;
import dev.voiceagent.adapters.postgres.shared.JsonValues;
import dev.voiceagent.application.embed.EmbedRepository;
import dev.voiceagent.application.embed.EmbedSession;
import dev.voiceagent.domain.embed.EmbedToken;
import io.smallrye.mutiny.Uni;
import io.vertx.mutiny.sqlclient.Pool;
import io.vertx.mutiny.sqlclient.Row;
import io.vertx.mutiny.sqlclient.Tuple;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

@DatabaseAccess
@ApplicationScoped
public class PostgresEmbedRepository implements EmbedRepository {

    private static final String TOKEN_COLUMNS = "id, organization_id, workflow_id, token, allowed_domains, settings,"
            + " is_active, usage_count, usage_limit, expires_at, created_by, created_at";
    private static final int TOKEN_ID = index(TOKEN_COLUMNS, "id");
    private static final int TOKEN_ORGANIZATION_ID = index(TOKEN_COLUMNS, "organization_id");
    private static final int TOKEN_WORKFLOW_ID = index(TOKEN_COLUMNS, "workflow_id");
    private static final int TOKEN_TOKEN = index(TOKEN_COLUMNS, "token");
    private static final int TOKEN_ALLOWED_DOMAINS = index(TOKEN_COLUMNS, "allowed_domains");
    private static final int TOKEN_SETTINGS = index(TOKEN_COLUMNS, "settings");
    private static final int TOKEN_IS_ACTIVE = index(TOKEN_COLUMNS, "is_active");
    private static final int TOKEN_USAGE_COUNT = index(TOKEN_COLUMNS, "usage_count");
    private static final int TOKEN_USAGE_LIMIT = index(TOKEN_COLUMNS, "usage_limit");
    private static final int TOKEN_EXPIRES_AT = index(TOKEN_COLUMNS, "expires_at");
    private static final int TOKEN_CREATED_BY = index(TOKEN_COLUMNS, "created_by");
    private static final int TOKEN_CREATED_AT = index(TOKEN_COLUMNS, "created_at");
    private static final String SESSION_COLUMNS = "id, embed_token_id, organization_id, workflow_id, workflow_run_id,"
            + " origin, expires_at, created_at";
    private static final int SESSION_ID = index(SESSION_COLUMNS, "id");
    private static final int SESSION_EMBED_TOKEN_ID = index(SESSION_COLUMNS, "embed_token_id");
    private static final int SESSION_ORGANIZATION_ID = index(SESSION_COLUMNS, "organization_id");
    private static final int SESSION_WORKFLOW_ID = index(SESSION_COLUMNS, "workflow_id");
    private static final int SESSION_WORKFLOW_RUN_ID = index(SESSION_COLUMNS, "workflow_run_id");
    private static final int SESSION_ORIGIN = index(SESSION_COLUMNS, "origin");
    private static final int SESSION_EXPIRES_AT = index(SESSION_COLUMNS, "expires_at");
    private static final int SESSION_CREATED_AT = index(SESSION_COLUMNS, "created_at");

    private final Pool pool;

    public PostgresEmbedRepository(Pool pool) {
        this.pool = pool;
    }

    @Override
    public Uni<EmbedToken> save(EmbedToken t) {
        Tuple args = Tuple.tuple().addLong(t.organizationId()).addLong(t.workflowId()).addString(t.token())
                .addValue(JsonValues.toJsonArray(t.allowedDomains())).addValue(JsonValues.toJson(t.settings()))
                .addBoolean(t.active()).addInteger(t.usageLimit()).addOffsetDateTime(utc(t.expiresAt()))
                .addLong(t.createdBy()).addOffsetDateTime(utc(t.createdAt()));
        return pool.preparedQuery("""
                        INSERT INTO embed_tokens (organization_id, workflow_id, token, allowed_domains,
                        settings, is_active, usage_limit, expires_at, created_by, created_at, updated_at) VALUES
                        ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now()) ON CONFLICT (workflow_id) DO UPDATE SET
                        allowed_domains = excluded.allowed_domains, settings = excluded.settings, is_active = true,
                        usage_limit = excluded.usage_limit, expires_at = excluded.expires_at,
                        updated_at = excluded.updated_at RETURNING\s""" + TOKEN_COLUMNS)
                .execute(args).map(rows -> token(rows.iterator().next()));
    }

    @Override
    public Uni<Optional<EmbedToken>> findByWorkflow(long organizationId, long workflowId) {
        return one("SELECT " + TOKEN_COLUMNS + " FROM embed_tokens WHERE organization_id = $1 AND workflow_id = $2",
                Tuple.of(organizationId, workflowId));
    }

    @Override
    public Uni<Optional<EmbedToken>> findByToken(String token) {
        return one("SELECT " + TOKEN_COLUMNS + " FROM embed_tokens WHERE token = $1", Tuple.of(token));
    }

    @Override
    public Uni<Optional<EmbedToken>> findById(long id) {
        return one("SELECT " + TOKEN_COLUMNS + " FROM embed_tokens WHERE id = $1", Tuple.of(id));
    }

    private Uni<Optional<EmbedToken>> one(String sql, Tuple args) {
        return pool.preparedQuery(sql).execute(args)
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(token(rows.iterator().next())));
    }

    @Override
    public Uni<Boolean> deactivate(long organizationId, long workflowId) {
        return pool.preparedQuery("""
                        UPDATE embed_tokens SET is_active = false, updated_at = now()
                        WHERE organization_id = $1 AND workflow_id = $2 AND is_active""")
                .execute(Tuple.of(organizationId, workflowId)).map(rows -> rows.rowCount() > 0);
    }

    @Override
    public Uni<Boolean> reserveUse(long tokenId) {
        return pool.preparedQuery("""
                        UPDATE embed_tokens SET usage_count = usage_count + 1 WHERE id = $1
                        AND (usage_limit IS NULL OR usage_count < usage_limit)""").execute(Tuple.of(tokenId))
                .map(rows -> rows.rowCount() == 1);
    }

    @Override
    public Uni<EmbedSession> insertSession(EmbedSession s, String tokenHash, String clientIp, String userAgent) {
        return pool.preparedQuery("""
                        INSERT INTO embed_sessions (token_hash, embed_token_id, organization_id, workflow_id,
                        workflow_run_id, origin, client_ip, user_agent, expires_at, created_at) VALUES
                        ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING\s""" + SESSION_COLUMNS)
                .execute(Tuple.tuple().addString(tokenHash).addLong(s.embedTokenId()).addLong(s.organizationId())
                        .addLong(s.workflowId()).addLong(s.runId()).addString(s.origin()).addString(clientIp)
                        .addString(userAgent).addOffsetDateTime(utc(s.expiresAt())).addOffsetDateTime(utc(s.createdAt())))
                .map(rows -> session(rows.iterator().next()));
    }

    @Override
    public Uni<Optional<EmbedSession>> findSessionByHash(String tokenHash) {
        return pool.preparedQuery("SELECT " + SESSION_COLUMNS + " FROM embed_sessions WHERE token_hash = $1")
                .execute(Tuple.of(tokenHash))
                .map(rows -> rows.size() == 0 ? Optional.empty() : Optional.of(session(rows.iterator().next())));
    }

    private static EmbedToken token(Row r) {
        List<String> domains = new ArrayList<>();
        List<Object> raw = JsonValues.toList(r.getValue(TOKEN_ALLOWED_DOMAINS));
        if (raw != null) {
            raw.forEach(d -> domains.add(String.valueOf(d)));
        }
        return new EmbedToken(r.getLong(TOKEN_ID), r.getLong(TOKEN_ORGANIZATION_ID), r.getLong(TOKEN_WORKFLOW_ID), r.getString(TOKEN_TOKEN), domains,
                JsonValues.toMap(r.getValue(TOKEN_SETTINGS)), r.getBoolean(TOKEN_IS_ACTIVE), r.getInteger(TOKEN_USAGE_COUNT), r.getInteger(TOKEN_USAGE_LIMIT),
                instant(r.getOffsetDateTime(TOKEN_EXPIRES_AT)), r.getLong(TOKEN_CREATED_BY), instant(r.getOffsetDateTime(TOKEN_CREATED_AT)));
    }

    private static EmbedSession session(Row r) {
        return new EmbedSession(r.getLong(SESSION_ID), r.getLong(SESSION_EMBED_TOKEN_ID), r.getLong(SESSION_ORGANIZATION_ID), r.getLong(SESSION_WORKFLOW_ID), r.getLong(SESSION_WORKFLOW_RUN_ID), r.getString(SESSION_ORIGIN),
                instant(r.getOffsetDateTime(SESSION_EXPIRES_AT)), instant(r.getOffsetDateTime(SESSION_CREATED_AT)));
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant == null ? null : instant.atOffset(ZoneOffset.UTC);
    }
}
