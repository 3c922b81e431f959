-- Signed webhooks with durable delivery. A delivery row per event and subscribed endpoint is the outbox: it is
-- written in the transaction of the change that raised the event, and delivered by any replica under a lease.
CREATE TABLE webhook_endpoints (
    id                         BIGSERIAL   PRIMARY KEY,
    organization_id            BIGINT      NOT NULL REFERENCES organizations (id),
    url                        TEXT        NOT NULL,
    description                TEXT,
    event_types                TEXT[]      NOT NULL DEFAULT '{}',
    enabled                    BOOLEAN     NOT NULL DEFAULT true,
    secret                     TEXT        NOT NULL, -- sealed (AES-256-GCM), never returned after creation
    previous_secret            TEXT,                 -- sealed; also signs until previous_secret_expires_at
    previous_secret_expires_at TIMESTAMPTZ,
    created_at                 TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at                 TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_organization_idx ON webhook_endpoints (organization_id, id);

CREATE TABLE webhook_deliveries (
    id              BIGSERIAL   PRIMARY KEY,
    organization_id BIGINT      NOT NULL,
    endpoint_id     BIGINT      NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
    message_id      TEXT        NOT NULL UNIQUE,
    event_type      TEXT        NOT NULL,
    payload         JSONB       NOT NULL,
    state           TEXT        NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'dead')),
    attempts        INTEGER     NOT NULL DEFAULT 0,
    next_attempt_at TIMESTAMPTZ NOT NULL DEFAULT now(),
    lease_owner     TEXT,
    lease_until     TIMESTAMPTZ,
    created_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    finished_at     TIMESTAMPTZ
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, id DESC);

-- Every attempt, as it ended: the status (null for a network error), its duration and the answer's first bytes.
CREATE TABLE webhook_attempts (
    delivery_id      BIGINT      NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
    attempt          INTEGER     NOT NULL,
    status           INTEGER,
    error            TEXT,
    duration_ms      BIGINT      NOT NULL,
    response_excerpt TEXT,
    attempted_at     TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (delivery_id, attempt)
);
