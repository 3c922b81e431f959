-- A workflow's QA node reviews a completed run through the webhook outbox (event_type 'workflow.qa', the run and the
-- node named): claimed under a lease by any replica like a delivery. While one is pending, the run's run.completed and
-- webhook nodes wait (they carry its annotations) and so does its metering (its tokens are the run's usage).
CREATE INDEX webhook_deliveries_pending_qa_idx ON webhook_deliveries (workflow_run_id)
    WHERE event_type = 'workflow.qa' AND state = 'pending';
