-- SIP trunks of trunk-capable configurations (cloudonix, ari); numbers may be routed through one.
CREATE TABLE telephony_trunks (
    id                         BIGSERIAL PRIMARY KEY,
    organization_id            BIGINT      NOT NULL,
    telephony_configuration_id BIGINT      NOT NULL,
    name                       VARCHAR(64) NOT NULL,
    enabled                    BOOLEAN     NOT NULL DEFAULT true,
    settings                   JSONB       NOT NULL DEFAULT '{}'::jsonb,
    created_at                 TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at                 TIMESTAMPTZ NOT NULL DEFAULT now(),
    UNIQUE (organization_id, id),
    FOREIGN KEY (organization_id, telephony_configuration_id)
        REFERENCES telephony_configurations (organization_id, id) ON DELETE CASCADE
);
CREATE INDEX telephony_trunks_configuration_idx ON telephony_trunks (organization_id, telephony_configuration_id);

-- a trunk in use by a number cannot be deleted (the default NO ACTION refuses it)
ALTER TABLE phone_numbers
    ADD COLUMN telephony_trunk_id BIGINT,
    ADD CONSTRAINT phone_numbers_trunk_fk FOREIGN KEY (organization_id, telephony_trunk_id)
        REFERENCES telephony_trunks (organization_id, id);
