-- Foundation schema: tenants, users, API keys, campaigns and their logs, and the minimal workflow,
-- telephony-configuration and call-attempt tables the campaign list reads.
-- Every tenant table carries organization_id and is indexed by it (distributable by organization).

CREATE TABLE organizations (
    id          BIGSERIAL PRIMARY KEY,
    provider_id TEXT        NOT NULL UNIQUE,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE users (
    id                       BIGSERIAL PRIMARY KEY,
    email                    TEXT        NOT NULL,
    name                     TEXT,
    provider_id              TEXT        NOT NULL UNIQUE,
    selected_organization_id BIGINT REFERENCES organizations (id),
    password_hash            TEXT,
    is_superuser             BOOLEAN     NOT NULL DEFAULT false,
    created_at               TIMESTAMPTZ NOT NULL DEFAULT now(),
    CONSTRAINT users_email_lower_case CHECK (email = lower(email))
);
CREATE UNIQUE INDEX users_email_key ON users (email);

CREATE TABLE api_keys (
    id              BIGSERIAL PRIMARY KEY,
    organization_id BIGINT      NOT NULL REFERENCES organizations (id),
    name            VARCHAR(255) NOT NULL,
    key_hash        VARCHAR(64) NOT NULL UNIQUE,
    key_prefix      VARCHAR(8)  NOT NULL,
    is_active       BOOLEAN     NOT NULL DEFAULT true,
    created_by      BIGINT REFERENCES users (id),
    last_used_at    TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    archived_at     TIMESTAMPTZ
);
CREATE INDEX api_keys_organization_idx ON api_keys (organization_id, id);

-- Secrets the installation generates for itself (e.g. the token signing key in local mode).
CREATE TABLE instance_secrets (
    name       TEXT PRIMARY KEY,
    value      TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- Minimal: the workflow feature extends this table.
CREATE TABLE workflows (
    id              BIGSERIAL PRIMARY KEY,
    organization_id BIGINT       NOT NULL REFERENCES organizations (id),
    name            VARCHAR(255) NOT NULL,
    status          TEXT         NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    UNIQUE (organization_id, id)
);

-- Minimal: the telephony feature extends this table.
CREATE TABLE telephony_configurations (
    id              BIGSERIAL PRIMARY KEY,
    organization_id BIGINT       NOT NULL REFERENCES organizations (id),
    name            VARCHAR(255) NOT NULL,
    provider        TEXT         NOT NULL,
    is_active       BOOLEAN      NOT NULL DEFAULT true,
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    UNIQUE (organization_id, id)
);

CREATE TABLE campaigns (
    id                         BIGSERIAL PRIMARY KEY,
    organization_id            BIGINT       NOT NULL REFERENCES organizations (id),
    name                       VARCHAR(255) NOT NULL,
    workflow_id                BIGINT       NOT NULL,
    created_by                 BIGINT REFERENCES users (id),
    telephony_configuration_id BIGINT,
    source_type                TEXT         NOT NULL DEFAULT 'csv',
    source_id                  TEXT         NOT NULL,
    state                      TEXT         NOT NULL DEFAULT 'created'
        CHECK (state IN ('created', 'syncing', 'running', 'paused', 'completed', 'failed')),
    total_rows                 INTEGER CHECK (total_rows >= 0),
    processed_rows             INTEGER      NOT NULL DEFAULT 0 CHECK (processed_rows >= 0),
    failed_rows                INTEGER      NOT NULL DEFAULT 0 CHECK (failed_rows >= 0),
    retry_config               JSONB        NOT NULL,
    max_concurrency            INTEGER CHECK (max_concurrency BETWEEN 1 AND 100),
    schedule_config            JSONB,
    circuit_breaker            JSONB,
    parent_campaign_id         BIGINT REFERENCES campaigns (id),
    redialed_campaign_id       BIGINT REFERENCES campaigns (id),
    created_at                 TIMESTAMPTZ  NOT NULL DEFAULT now(),
    started_at                 TIMESTAMPTZ,
    completed_at               TIMESTAMPTZ,
    updated_at                 TIMESTAMPTZ  NOT NULL DEFAULT now(),
    -- a campaign's workflow and telephony configuration are of its own organization
    FOREIGN KEY (organization_id, workflow_id) REFERENCES workflows (organization_id, id),
    FOREIGN KEY (organization_id, telephony_configuration_id) REFERENCES telephony_configurations (organization_id, id)
);
CREATE INDEX campaigns_organization_created_idx ON campaigns (organization_id, created_at DESC, id DESC);

-- Append-only: rows are inserted, never updated.
CREATE TABLE campaign_log_entries (
    id              BIGSERIAL PRIMARY KEY,
    organization_id BIGINT      NOT NULL,
    campaign_id     BIGINT      NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    ts              TIMESTAMPTZ NOT NULL,
    level           TEXT        NOT NULL CHECK (level IN ('info', 'warning', 'error')),
    event           TEXT        NOT NULL,
    message         TEXT        NOT NULL,
    details         JSONB
);
CREATE INDEX campaign_log_entries_campaign_idx ON campaign_log_entries (organization_id, campaign_id, id);

-- Minimal call-attempt ledger (one row per dial of a contact, retries included); the campaign engine
-- extends it. The list's executed_count and total_queued_count are counted from it.
CREATE TABLE call_attempts (
    id              BIGSERIAL PRIMARY KEY,
    organization_id BIGINT      NOT NULL,
    campaign_id     BIGINT      NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    state           TEXT        NOT NULL DEFAULT 'queued'
        CHECK (state IN ('queued', 'processing', 'processed', 'failed')),
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX call_attempts_campaign_idx ON call_attempts (organization_id, campaign_id, state);
