-- Voices cloned at a text-to-speech provider from an organization's recordings. A workflow speaks with one when
-- its configuration's "voice" names it ({"provider", "voice_id", "clone_id", "name"}).
CREATE TABLE voice_clones (
    id                BIGSERIAL PRIMARY KEY,
    organization_id   BIGINT      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    name              TEXT        NOT NULL,
    description       TEXT,
    provider          TEXT        NOT NULL,
    provider_voice_id TEXT        NOT NULL,
    status            TEXT        NOT NULL,
    recording_ids     JSONB       NOT NULL,
    created_by        BIGINT      NOT NULL,
    created_at        TIMESTAMPTZ NOT NULL
);
CREATE INDEX voice_clones_organization_idx ON voice_clones (organization_id, created_at DESC);
