-- Legal calling hours as minutes of the day, [start, end) in the contact's local time; 1440 is 24:00.
-- An organization's NULLs follow the installation's default (voiceagent.calling-hours.default, 08:00-21:00).
ALTER TABLE organizations
    ADD COLUMN calling_hours_start_minute SMALLINT CHECK (calling_hours_start_minute BETWEEN 0 AND 1439),
    ADD COLUMN calling_hours_end_minute   SMALLINT CHECK (calling_hours_end_minute BETWEEN 1 AND 1440),
    ADD CONSTRAINT organizations_calling_hours_check CHECK (
        (calling_hours_start_minute IS NULL) = (calling_hours_end_minute IS NULL)
        AND (calling_hours_start_minute IS NULL OR calling_hours_start_minute < calling_hours_end_minute));

-- A campaign's own hours; widening the organization's needs the reason kept here (and in the campaign's log).
CREATE TABLE campaign_calling_hours (
    campaign_id     BIGINT      PRIMARY KEY REFERENCES campaigns (id) ON DELETE CASCADE,
    organization_id BIGINT      NOT NULL,
    start_minute    SMALLINT    NOT NULL CHECK (start_minute BETWEEN 0 AND 1439),
    end_minute      SMALLINT    NOT NULL CHECK (end_minute BETWEEN 1 AND 1440),
    override_reason TEXT,
    updated_at      TIMESTAMPTZ NOT NULL DEFAULT now(),
    CHECK (start_minute < end_minute)
);
