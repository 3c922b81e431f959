-- GET /campaign/{id}/runs pages a campaign's runs newest first.
CREATE INDEX workflow_runs_campaign_idx ON workflow_runs (organization_id, campaign_id, created_at DESC, id DESC)
    WHERE campaign_id IS NOT NULL;
