-- Recorded audio prompts. A recording id is unique among an organization's active recordings (a deleted one's id
-- can be used again); definitions name recordings by it.
CREATE TABLE recordings (
    id              BIGSERIAL PRIMARY KEY,
    organization_id BIGINT      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    recording_id    TEXT        NOT NULL,
    workflow_id     BIGINT,
    tts_provider    TEXT,
    tts_model       TEXT,
    tts_voice_id    TEXT,
    transcript      TEXT        NOT NULL,
    storage_key     TEXT        NOT NULL,
    storage_backend TEXT        NOT NULL,
    metadata        JSONB       NOT NULL DEFAULT '{}',
    created_by      BIGINT      NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    is_active       BOOLEAN     NOT NULL DEFAULT true,
    FOREIGN KEY (organization_id, workflow_id) REFERENCES workflows (organization_id, id) ON DELETE SET NULL (workflow_id)
);
CREATE UNIQUE INDEX recordings_organization_recording_key ON recordings (organization_id, recording_id) WHERE is_active;
CREATE INDEX recordings_organization_idx ON recordings (organization_id, created_at DESC) WHERE is_active;
