-- Voice runtime: the replica that holds a run's media socket, and when it last said so. A run is claimed by one
-- socket at a time; a heartbeat older than 30 s means its replica is gone and the run may be claimed again.
ALTER TABLE workflow_runs ADD COLUMN media_owner TEXT;
ALTER TABLE workflow_runs ADD COLUMN media_heartbeat_at TIMESTAMPTZ;
