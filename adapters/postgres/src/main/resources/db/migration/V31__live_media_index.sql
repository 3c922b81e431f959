-- The runs whose call media a replica holds: few at any time, read by the autoscale metric (live voice sessions of
-- the fleet) and by the tick that settles calls whose replica died. A partial index keeps both one small scan.
CREATE INDEX workflow_runs_live_media ON workflow_runs (media_heartbeat_at) WHERE media_owner IS NOT NULL;
