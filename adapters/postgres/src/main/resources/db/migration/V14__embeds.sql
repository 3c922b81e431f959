-- Website embeds: one token per workflow (public: pages carry it), and the sessions pages open with it (their
-- tokens are secrets, kept as SHA-256 hashes).
CREATE TABLE embed_tokens (
    id              BIGSERIAL PRIMARY KEY,
    organization_id BIGINT      NOT NULL,
    workflow_id     BIGINT      NOT NULL UNIQUE,
    token           TEXT        NOT NULL UNIQUE,
    allowed_domains JSONB       NOT NULL,
    settings        JSONB       NOT NULL,
    is_active       BOOLEAN     NOT NULL DEFAULT true,
    usage_count     INTEGER     NOT NULL DEFAULT 0,
    usage_limit     INTEGER,
    expires_at      TIMESTAMPTZ,
    created_by      BIGINT      NOT NULL REFERENCES users (id),
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    FOREIGN KEY (organization_id, workflow_id) REFERENCES workflows (organization_id, id) ON DELETE CASCADE
);

CREATE TABLE embed_sessions (
    id              BIGSERIAL PRIMARY KEY,
    token_hash      TEXT        NOT NULL UNIQUE,
    embed_token_id  BIGINT      NOT NULL REFERENCES embed_tokens (id) ON DELETE CASCADE,
    organization_id BIGINT      NOT NULL,
    workflow_id     BIGINT      NOT NULL,
    workflow_run_id BIGINT      NOT NULL REFERENCES workflow_runs (id) ON DELETE CASCADE,
    origin          TEXT,
    client_ip       TEXT,
    user_agent      TEXT,
    expires_at      TIMESTAMPTZ NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX embed_sessions_expiry_idx ON embed_sessions (expires_at);
