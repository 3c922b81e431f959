-- What the carrier's own answering-machine detection said of a live call (Twilio's asynchronous AMD), for the replica
-- that holds the call's media to act on (it reads it with its heartbeat when the report reached another replica).
ALTER TABLE workflow_runs ADD COLUMN carrier_amd text;
