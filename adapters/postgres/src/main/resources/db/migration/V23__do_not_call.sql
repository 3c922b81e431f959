-- The organization's do-not-call list (numbers in E.164), checked when the dispatcher claims a contact (in the same
-- statement, so a number listed before the claim is never dialed) and before a single call or a trigger dials.
CREATE TABLE dnc_numbers (
    organization_id BIGINT      NOT NULL REFERENCES organizations (id),
    phone_number    TEXT        NOT NULL,
    source          TEXT        NOT NULL CHECK (source IN ('manual', 'import', 'disposition')),
    reason          TEXT,
    workflow_run_id BIGINT,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    PRIMARY KEY (organization_id, phone_number)
);
CREATE INDEX dnc_numbers_newest_idx ON dnc_numbers (organization_id, created_at DESC, phone_number);

-- The disposition codes that put the called number on the list when a run ends with one of them.
ALTER TABLE organizations ADD COLUMN dnc_disposition_codes TEXT[] NOT NULL DEFAULT '{}';
