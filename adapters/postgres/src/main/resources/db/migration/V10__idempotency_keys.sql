-- Idempotency-Key: the first successful response of a request, replayed for 24 hours.
CREATE TABLE idempotency_keys (
    organization_id BIGINT      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    key             TEXT        NOT NULL,
    fingerprint     TEXT        NOT NULL,
    response        TEXT,
    created_at      TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (organization_id, key)
);
CREATE INDEX idempotency_keys_created_idx ON idempotency_keys (created_at);
