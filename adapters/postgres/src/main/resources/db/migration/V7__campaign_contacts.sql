-- One row per contact of a campaign source; the dispatcher claims due ones.
CREATE TABLE campaign_contacts (
    id              BIGSERIAL PRIMARY KEY,
    organization_id BIGINT      NOT NULL,
    campaign_id     BIGINT      NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    row_number      INTEGER     NOT NULL,
    phone_number    TEXT        NOT NULL,
    timezone        TEXT,
    context         JSONB       NOT NULL DEFAULT '{}'::jsonb,
    state           TEXT        NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'dialing', 'waiting_retry', 'done')),
    attempts        INTEGER     NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_outcome    TEXT,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (campaign_id, row_number),
    UNIQUE (campaign_id, phone_number)
);
CREATE INDEX campaign_contacts_due_idx ON campaign_contacts (organization_id, campaign_id, next_attempt_at)
    WHERE state IN ('pending', 'waiting_retry');
