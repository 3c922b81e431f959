-- Usage, credits and payments. Money is in integer minor units (cents); one credit is one cent.

-- The price per second an operator set for an organization (NULL: the installation's default applies).
ALTER TABLE organizations ADD COLUMN price_per_second NUMERIC(14, 8) CHECK (price_per_second >= 0);

-- A finished run is metered once: the flag and its partial index keep the metering tick's scan to the runs
-- still waiting, however many runs there are.
ALTER TABLE workflow_runs ADD COLUMN metered BOOLEAN NOT NULL DEFAULT false;
CREATE INDEX workflow_runs_unmetered_idx ON workflow_runs (id) WHERE is_completed AND NOT metered;
-- Reports and usage lists read an organization's runs by time.
CREATE INDEX workflow_runs_organization_created_idx ON workflow_runs (organization_id, created_at, id);

-- One usage record per finished run: call seconds from the call ledger, model tokens from the run, the price
-- in force when it was metered and the charge it came to.
CREATE TABLE usage_records (
    workflow_run_id   BIGINT      PRIMARY KEY REFERENCES workflow_runs (id) ON DELETE CASCADE,
    organization_id   BIGINT      NOT NULL REFERENCES organizations (id),
    workflow_id       BIGINT      NOT NULL,
    run_created_at    TIMESTAMPTZ NOT NULL,
    metered_at        TIMESTAMPTZ NOT NULL,
    call_seconds      INTEGER     NOT NULL CHECK (call_seconds >= 0),
    prompt_tokens     BIGINT      NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens BIGINT      NOT NULL DEFAULT 0 CHECK (completion_tokens >= 0),
    price_per_second  NUMERIC(14, 8),
    charge_minor      BIGINT      NOT NULL CHECK (charge_minor >= 0),
    currency          TEXT        NOT NULL
);
CREATE INDEX usage_records_organization_time_idx ON usage_records (organization_id, run_created_at)
    INCLUDE (call_seconds, charge_minor);

-- Credits: an account per organization holding the running balance, and its append-only ledger.
CREATE TABLE credit_accounts (
    id              BIGSERIAL   UNIQUE,
    organization_id BIGINT      PRIMARY KEY REFERENCES organizations (id),
    balance         BIGINT      NOT NULL DEFAULT 0,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE credit_ledger (
    id                BIGSERIAL   PRIMARY KEY,
    organization_id   BIGINT      NOT NULL REFERENCES organizations (id),
    entry_type        TEXT        NOT NULL CHECK (entry_type IN ('grant', 'purchase', 'usage')),
    origin            TEXT,
    credits_delta     BIGINT      NOT NULL,
    balance_after     BIGINT      NOT NULL,
    amount_minor      BIGINT,
    amount_currency   TEXT,
    workflow_run_id   BIGINT,
    workflow_id       BIGINT,
    billable_quantity BIGINT,
    quantity_unit     TEXT,
    correlation_id    TEXT,
    -- what makes an entry happen once: the run it meters, the checkout session it credits
    idempotency_key   TEXT        NOT NULL UNIQUE,
    metadata          JSONB       NOT NULL DEFAULT '{}'::jsonb,
    created_at        TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX credit_ledger_organization_idx ON credit_ledger (organization_id, id DESC);

CREATE FUNCTION credit_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'credit_ledger is append-only';
END $$;
CREATE TRIGGER credit_ledger_append_only BEFORE UPDATE OR DELETE ON credit_ledger
    FOR EACH ROW EXECUTE FUNCTION credit_ledger_append_only();

-- The organization's customer at the payment provider and its subscription as the provider last reported it.
CREATE TABLE billing_customers (
    organization_id      BIGINT      PRIMARY KEY REFERENCES organizations (id),
    provider             TEXT        NOT NULL,
    customer_id          TEXT        NOT NULL,
    subscription_id      TEXT,
    subscription_status  TEXT,
    plan                 TEXT,
    current_period_end   TIMESTAMPTZ,
    cancel_at_period_end BOOLEAN     NOT NULL DEFAULT false,
    event_created_at     TIMESTAMPTZ,
    updated_at           TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (provider, customer_id)
);
