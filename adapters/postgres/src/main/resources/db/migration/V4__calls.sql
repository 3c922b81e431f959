-- Single calls: the telephony leg of a run, counted for the organization's concurrency limit, and
-- the provider callbacks already applied (recorded after the change they caused commits).

ALTER TABLE organizations ADD COLUMN concurrent_call_limit INTEGER CHECK (concurrent_call_limit >= 1);

CREATE TABLE calls (
    id                         BIGSERIAL PRIMARY KEY,
    organization_id            BIGINT      NOT NULL REFERENCES organizations (id),
    workflow_run_id            BIGINT      NOT NULL UNIQUE REFERENCES workflow_runs (id) ON DELETE CASCADE,
    telephony_configuration_id BIGINT,
    provider                   TEXT        NOT NULL,
    provider_call_id           TEXT,
    status                     TEXT        NOT NULL CHECK (status IN ('initiated', 'ringing', 'in-progress', 'completed',
                                   'busy', 'no-answer', 'voicemail', 'failed', 'canceled', 'error')),
    from_number                TEXT,
    to_number                  TEXT        NOT NULL,
    started_at                 TIMESTAMPTZ NOT NULL,
    answered_at                TIMESTAMPTZ,
    ended_at                   TIMESTAMPTZ,
    duration_seconds           INTEGER,
    updated_at                 TIMESTAMPTZ NOT NULL DEFAULT now(),
    FOREIGN KEY (organization_id, telephony_configuration_id)
        REFERENCES telephony_configurations (organization_id, id) ON DELETE SET NULL (telephony_configuration_id)
);
CREATE INDEX calls_active_idx ON calls (organization_id, started_at)
    WHERE status IN ('initiated', 'ringing', 'in-progress');
CREATE UNIQUE INDEX calls_provider_call_key ON calls (provider, provider_call_id) WHERE provider_call_id IS NOT NULL;

CREATE TABLE call_callbacks (
    provider    TEXT        NOT NULL,
    dedup_key   TEXT        NOT NULL,
    call_id     BIGINT      NOT NULL REFERENCES calls (id) ON DELETE CASCADE,
    received_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (provider, dedup_key)
);
