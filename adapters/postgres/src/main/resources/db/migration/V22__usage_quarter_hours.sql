-- Metered usage per organization and quarter of an hour (UTC), kept in the metering transaction beside the usage
-- records. Every time zone's offset is a whole number of quarter hours, so a day in any zone is a whole number of
-- these rows: the daily breakdown and the month's totals sum a few thousand rows instead of every run.
CREATE TABLE usage_quarter_hours (
    organization_id BIGINT      NOT NULL REFERENCES organizations (id),
    quarter_start   TIMESTAMPTZ NOT NULL,
    call_seconds    BIGINT      NOT NULL,
    charge_minor    BIGINT      NOT NULL,
    runs            BIGINT      NOT NULL,
    calls           BIGINT      NOT NULL,
    PRIMARY KEY (organization_id, quarter_start)
);

INSERT INTO usage_quarter_hours (organization_id, quarter_start, call_seconds, charge_minor, runs, calls)
SELECT organization_id, date_bin('15 minutes', run_created_at, TIMESTAMPTZ '2000-01-01 00:00:00+00'),
       sum(call_seconds), sum(charge_minor), count(*), count(*) FILTER (WHERE call_seconds > 0)
  FROM usage_records GROUP BY 1, 2;
