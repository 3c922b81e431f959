-- Telephony: credentials (AES-256-GCM sealed JSON), the per-organization default for outbound
-- calls, and phone numbers.

ALTER TABLE telephony_configurations
    ADD COLUMN credentials         TEXT,
    ADD COLUMN is_default_outbound BOOLEAN     NOT NULL DEFAULT false,
    ADD COLUMN inactive_since      TIMESTAMPTZ,
    ADD COLUMN inactive_reason     TEXT,
    ADD COLUMN updated_at          TIMESTAMPTZ NOT NULL DEFAULT now();
CREATE UNIQUE INDEX telephony_configurations_name_key ON telephony_configurations (organization_id, lower(name));
-- at most one default per organization; the repository keeps one whenever any configuration exists
CREATE UNIQUE INDEX telephony_configurations_one_default ON telephony_configurations (organization_id)
    WHERE is_default_outbound;

CREATE TABLE phone_numbers (
    id                         BIGSERIAL PRIMARY KEY,
    organization_id            BIGINT       NOT NULL,
    telephony_configuration_id BIGINT       NOT NULL,
    address                    VARCHAR(255) NOT NULL,
    address_normalized         VARCHAR(255) NOT NULL,
    country_code               VARCHAR(2),
    label                      VARCHAR(64),
    inbound_workflow_id        BIGINT,
    is_active                  BOOLEAN      NOT NULL DEFAULT true,
    is_default_caller_id       BOOLEAN      NOT NULL DEFAULT false,
    extra_metadata             JSONB        NOT NULL DEFAULT '{}'::jsonb,
    created_at                 TIMESTAMPTZ  NOT NULL DEFAULT now(),
    updated_at                 TIMESTAMPTZ  NOT NULL DEFAULT now(),
    FOREIGN KEY (organization_id, telephony_configuration_id)
        REFERENCES telephony_configurations (organization_id, id) ON DELETE CASCADE,
    FOREIGN KEY (organization_id, inbound_workflow_id)
        REFERENCES workflows (organization_id, id) ON DELETE SET NULL (inbound_workflow_id)
);
CREATE UNIQUE INDEX phone_numbers_address_key ON phone_numbers (organization_id, address_normalized);
CREATE UNIQUE INDEX phone_numbers_one_default_caller ON phone_numbers (telephony_configuration_id)
    WHERE is_default_caller_id;
CREATE INDEX phone_numbers_configuration_idx ON phone_numbers (organization_id, telephony_configuration_id);
