-- The campaign dispatcher's ledger: a campaign's call attempts are rows of `calls` (the table that
-- already counts every call for the organization's limit), one per contact and attempt number,
-- written and committed before the provider is called. An attempt holds a lease; an attempt whose
-- lease expired without an outcome is reconciled through the provider, never left hanging.
ALTER TABLE calls
    ADD COLUMN campaign_id      BIGINT REFERENCES campaigns (id) ON DELETE CASCADE,
    ADD COLUMN contact_id       BIGINT REFERENCES campaign_contacts (id) ON DELETE CASCADE,
    ADD COLUMN attempt_number   INTEGER CHECK (attempt_number >= 1),
    ADD COLUMN lease_expires_at TIMESTAMPTZ,
    ADD COLUMN failure_reason   TEXT,
    ADD CONSTRAINT calls_campaign_attempt_shape
        CHECK ((campaign_id IS NULL) = (contact_id IS NULL) AND (contact_id IS NULL) = (attempt_number IS NULL));
CREATE UNIQUE INDEX calls_contact_attempt_key ON calls (contact_id, attempt_number) WHERE contact_id IS NOT NULL;
CREATE INDEX calls_campaign_ended_idx ON calls (campaign_id, ended_at) WHERE campaign_id IS NOT NULL;
CREATE INDEX calls_lease_idx ON calls (lease_expires_at) WHERE status IN ('initiated', 'ringing', 'in-progress');

-- The breaker counts from this instant on (set when the campaign resumes: a fresh window); the
-- import lease lets any replica take over an interrupted import.
ALTER TABLE campaigns
    ADD COLUMN breaker_window_from TIMESTAMPTZ,
    ADD COLUMN import_lease_until  TIMESTAMPTZ;

CREATE INDEX campaign_contacts_open_idx ON campaign_contacts (campaign_id)
    WHERE state IN ('pending', 'waiting_retry', 'dialing');

-- The placeholder attempt table of the foundation is replaced by the ledger above.
DROP TABLE call_attempts;

-- Every tick looks for running campaigns and for imports to take over.
CREATE INDEX campaigns_running_idx ON campaigns (organization_id) WHERE state = 'running';
CREATE INDEX campaigns_importing_idx ON campaigns (id) WHERE total_rows IS NULL AND state IN ('syncing', 'paused');

-- Single calls hold a lease too, so a call whose reports were lost is reconciled, not counted forever.
ALTER TABLE calls ALTER COLUMN lease_expires_at SET DEFAULT now() + interval '2 minutes';
