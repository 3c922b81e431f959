-- Per-key rate limits: one token bucket per API key or service key, shared by every replica, and an
-- organization's own rate and burst when an operator sets them (else the installation's defaults).
CREATE TABLE rate_limit_buckets (
    key_id     TEXT             PRIMARY KEY,
    tokens     DOUBLE PRECISION NOT NULL,
    updated_at TIMESTAMPTZ      NOT NULL
);

ALTER TABLE organizations
    ADD COLUMN rate_limit_per_second DOUBLE PRECISION CHECK (rate_limit_per_second > 0),
    ADD COLUMN rate_limit_burst      INTEGER CHECK (rate_limit_burst >= 1);
