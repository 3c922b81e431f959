-- A workflow's webhook node is delivered through the same outbox: its row names the run and the node (the request
-- is planned from the node's settings at delivery) instead of an endpoint.
ALTER TABLE webhook_deliveries
    ALTER COLUMN endpoint_id DROP NOT NULL,
    ADD COLUMN workflow_run_id BIGINT,
    ADD COLUMN node_id TEXT,
    ADD CONSTRAINT webhook_deliveries_target CHECK ((endpoint_id IS NULL) = (node_id IS NOT NULL));
