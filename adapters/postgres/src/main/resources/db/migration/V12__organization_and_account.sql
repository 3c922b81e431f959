-- Organization and account: model configurations (v2 per organization, the legacy v1 per user), tracing
-- credentials, onboarding state and service keys. Configurations and credentials hold provider keys: they are
-- stored sealed (AES-256-GCM, bound to their owner), never in clear.

CREATE TABLE organization_model_configurations (
    organization_id      BIGINT      PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    sealed_configuration TEXT        NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL
);

CREATE TABLE user_model_configurations (
    organization_id      BIGINT      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    user_id              BIGINT      NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    sealed_configuration TEXT        NOT NULL,
    updated_at           TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (organization_id, user_id)
);

CREATE TABLE tracing_credentials (
    organization_id    BIGINT      PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
    provider           TEXT        NOT NULL,
    sealed_credentials TEXT        NOT NULL,
    updated_at         TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE onboarding_states (
    user_id         BIGINT      PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    organization_id BIGINT      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    state           JSONB       NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE service_keys (
    id              BIGSERIAL PRIMARY KEY,
    organization_id BIGINT      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name            TEXT        NOT NULL,
    key_prefix      TEXT        NOT NULL,
    key_hash        TEXT        NOT NULL,
    is_active       BOOLEAN     NOT NULL DEFAULT true,
    created_by      BIGINT      NOT NULL REFERENCES users (id),
    created_at      TIMESTAMPTZ NOT NULL,
    last_used_at    TIMESTAMPTZ,
    expires_at      TIMESTAMPTZ NOT NULL,
    archived_at     TIMESTAMPTZ
);
CREATE UNIQUE INDEX service_keys_key_hash ON service_keys (key_hash);
CREATE INDEX service_keys_organization ON service_keys (organization_id, id);
