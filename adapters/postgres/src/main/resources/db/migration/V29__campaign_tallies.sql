-- The campaign list's counts (calls placed, calls without a failure, contacts still to dial) without
-- counting calls and contacts on every read. Every statement that inserts, updates or deletes calls
-- or contacts appends its net change per campaign here (statement triggers over the transition
-- tables, and a filtered row trigger for updates of calls: rows are only appended, never updated,
-- so no writer ever waits for another); the list sums a campaign's rows,
-- and a tick folds each campaign's rows into one (MaintenanceTicks, any replica).
--
-- Writers stop for the length of this migration (SHARE ROW EXCLUSIVE blocks inserts, updates and
-- deletes, not reads), so the first tallies and the triggers start from one consistent state.
LOCK TABLE calls, campaign_contacts IN SHARE ROW EXCLUSIVE MODE;

CREATE TABLE campaign_tallies (
    campaign_id     BIGINT  NOT NULL REFERENCES campaigns (id) ON DELETE CASCADE,
    organization_id BIGINT  NOT NULL,
    calls           BIGINT  NOT NULL,  -- calls placed for the campaign
    executed_calls  BIGINT  NOT NULL,  -- of them, without a failure reason
    open_contacts   BIGINT  NOT NULL,  -- contacts pending or waiting for a retry
    folded          BOOLEAN NOT NULL DEFAULT false
);
CREATE INDEX campaign_tallies_organization_idx ON campaign_tallies (organization_id, campaign_id);
CREATE INDEX campaign_tallies_unfolded_idx ON campaign_tallies (campaign_id) WHERE NOT folded;

INSERT INTO campaign_tallies (campaign_id, organization_id, calls, executed_calls, open_contacts, folded)
SELECT c.id, c.organization_id,
       (SELECT count(*) FROM calls a WHERE a.campaign_id = c.id),
       (SELECT count(*) FROM calls a WHERE a.campaign_id = c.id AND a.failure_reason IS NULL),
       (SELECT count(*) FROM campaign_contacts q WHERE q.campaign_id = c.id AND q.state IN ('pending', 'waiting_retry')),
       true
  FROM campaigns c;

-- One function per table and event, over the statement's transition tables (new_rows, old_rows):
-- each row counts +1 where it is now and -1 where it was. A change for a campaign that no longer
-- exists (deleted in the same statement, by a cascade) is dropped rather than refused by the key.
CREATE FUNCTION campaign_tallies_calls_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO campaign_tallies (campaign_id, organization_id, calls, executed_calls, open_contacts)
    SELECT d.campaign_id, min(d.organization_id), sum(d.calls), sum(d.executed), sum(d.open)
      FROM (SELECT campaign_id, organization_id, 1 AS calls, CASE WHEN failure_reason IS NULL THEN 1 ELSE 0 END AS executed,
                   0 AS open FROM new_rows WHERE campaign_id IS NOT NULL) d
     WHERE EXISTS (SELECT 1 FROM campaigns c WHERE c.id = d.campaign_id)
     GROUP BY d.campaign_id
    HAVING sum(d.calls) <> 0 OR sum(d.executed) <> 0 OR sum(d.open) <> 0;
    RETURN NULL;
END $$;

-- Calls are updated often (status callbacks, lease renewals) and almost never in what the tallies
-- count: a row trigger filtered by its WHEN clause (evaluated without calling any function) instead
-- of capturing every updated row in transition tables.
CREATE FUNCTION campaign_tallies_call_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.campaign_id IS NOT NULL AND EXISTS (SELECT 1 FROM campaigns c WHERE c.id = OLD.campaign_id) THEN
        INSERT INTO campaign_tallies (campaign_id, organization_id, calls, executed_calls, open_contacts)
        VALUES (OLD.campaign_id, OLD.organization_id, -1, CASE WHEN OLD.failure_reason IS NULL THEN -1 ELSE 0 END, 0);
    END IF;
    IF NEW.campaign_id IS NOT NULL THEN
        INSERT INTO campaign_tallies (campaign_id, organization_id, calls, executed_calls, open_contacts)
        VALUES (NEW.campaign_id, NEW.organization_id, 1, CASE WHEN NEW.failure_reason IS NULL THEN 1 ELSE 0 END, 0);
    END IF;
    RETURN NULL;
END $$;

CREATE FUNCTION campaign_tallies_calls_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO campaign_tallies (campaign_id, organization_id, calls, executed_calls, open_contacts)
    SELECT d.campaign_id, min(d.organization_id), sum(d.calls), sum(d.executed), sum(d.open)
      FROM (SELECT campaign_id, organization_id, -1 AS calls, CASE WHEN failure_reason IS NULL THEN -1 ELSE 0 END AS executed,
                   0 AS open FROM old_rows WHERE campaign_id IS NOT NULL) d
     WHERE EXISTS (SELECT 1 FROM campaigns c WHERE c.id = d.campaign_id)
     GROUP BY d.campaign_id
    HAVING sum(d.calls) <> 0 OR sum(d.executed) <> 0 OR sum(d.open) <> 0;
    RETURN NULL;
END $$;

CREATE FUNCTION campaign_tallies_contacts_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO campaign_tallies (campaign_id, organization_id, calls, executed_calls, open_contacts)
    SELECT d.campaign_id, min(d.organization_id), sum(d.calls), sum(d.executed), sum(d.open)
      FROM (SELECT campaign_id, organization_id, 0 AS calls, 0 AS executed, 1 AS open
              FROM new_rows WHERE state IN ('pending', 'waiting_retry')) d
     WHERE EXISTS (SELECT 1 FROM campaigns c WHERE c.id = d.campaign_id)
     GROUP BY d.campaign_id
    HAVING sum(d.calls) <> 0 OR sum(d.executed) <> 0 OR sum(d.open) <> 0;
    RETURN NULL;
END $$;

CREATE FUNCTION campaign_tallies_contacts_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO campaign_tallies (campaign_id, organization_id, calls, executed_calls, open_contacts)
    SELECT d.campaign_id, min(d.organization_id), sum(d.calls), sum(d.executed), sum(d.open)
      FROM (SELECT campaign_id, organization_id, 0 AS calls, 0 AS executed, 1 AS open
              FROM new_rows WHERE state IN ('pending', 'waiting_retry')
            UNION ALL
            SELECT campaign_id, organization_id, 0 AS calls, 0 AS executed, -1 AS open
              FROM old_rows WHERE state IN ('pending', 'waiting_retry')) d
     WHERE EXISTS (SELECT 1 FROM campaigns c WHERE c.id = d.campaign_id)
     GROUP BY d.campaign_id
    HAVING sum(d.calls) <> 0 OR sum(d.executed) <> 0 OR sum(d.open) <> 0;
    RETURN NULL;
END $$;

CREATE FUNCTION campaign_tallies_contacts_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO campaign_tallies (campaign_id, organization_id, calls, executed_calls, open_contacts)
    SELECT d.campaign_id, min(d.organization_id), sum(d.calls), sum(d.executed), sum(d.open)
      FROM (SELECT campaign_id, organization_id, 0 AS calls, 0 AS executed, -1 AS open
              FROM old_rows WHERE state IN ('pending', 'waiting_retry')) d
     WHERE EXISTS (SELECT 1 FROM campaigns c WHERE c.id = d.campaign_id)
     GROUP BY d.campaign_id
    HAVING sum(d.calls) <> 0 OR sum(d.executed) <> 0 OR sum(d.open) <> 0;
    RETURN NULL;
END $$;

CREATE TRIGGER campaign_tallies_calls_inserted AFTER INSERT ON calls REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION campaign_tallies_calls_inserted();
CREATE TRIGGER campaign_tallies_calls_updated AFTER UPDATE OF failure_reason, campaign_id ON calls FOR EACH ROW
    WHEN ((OLD.failure_reason IS NULL) IS DISTINCT FROM (NEW.failure_reason IS NULL)
          OR OLD.campaign_id IS DISTINCT FROM NEW.campaign_id)
    EXECUTE FUNCTION campaign_tallies_call_changed();
CREATE TRIGGER campaign_tallies_calls_deleted AFTER DELETE ON calls REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION campaign_tallies_calls_deleted();
CREATE TRIGGER campaign_tallies_contacts_inserted AFTER INSERT ON campaign_contacts REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION campaign_tallies_contacts_inserted();
CREATE TRIGGER campaign_tallies_contacts_updated AFTER UPDATE ON campaign_contacts
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION campaign_tallies_contacts_updated();
CREATE TRIGGER campaign_tallies_contacts_deleted AFTER DELETE ON campaign_contacts REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION campaign_tallies_contacts_deleted();
