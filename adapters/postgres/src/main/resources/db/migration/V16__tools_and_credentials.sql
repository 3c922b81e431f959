-- Credentials tools authenticate with (sealed: AES-GCM bound to the organization and the credential's uuid) and
-- the organization's tools. Both are soft deleted / archived, never removed: a workflow's nodes name tools by uuid.
CREATE TABLE credentials (
    id              BIGSERIAL PRIMARY KEY,
    organization_id BIGINT      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    uuid            TEXT        NOT NULL UNIQUE,
    name            TEXT        NOT NULL,
    description     TEXT,
    credential_type TEXT        NOT NULL,
    sealed_data     TEXT        NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    deleted_at      TIMESTAMPTZ
);
CREATE UNIQUE INDEX credentials_organization_name_key ON credentials (organization_id, name) WHERE deleted_at IS NULL;
CREATE INDEX credentials_organization_idx ON credentials (organization_id, created_at DESC) WHERE deleted_at IS NULL;

CREATE TABLE tools (
    id              BIGSERIAL PRIMARY KEY,
    organization_id BIGINT      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    uuid            TEXT        NOT NULL UNIQUE,
    name            TEXT        NOT NULL,
    description     TEXT,
    category        TEXT        NOT NULL,
    icon            TEXT,
    icon_color      TEXT,
    status          TEXT        NOT NULL,
    definition      JSONB       NOT NULL,
    created_by      BIGINT      REFERENCES users (id) ON DELETE SET NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL
);
CREATE INDEX tools_organization_idx ON tools (organization_id, created_at DESC);
-- which tools authenticate with a credential (a delete is refused while one does)
CREATE INDEX tools_credential_idx ON tools ((definition -> 'config' ->> 'credential_uuid'))
    WHERE status <> 'archived';
