-- Inbound calls: a provider's webhook names only the number called, in any organization.
CREATE INDEX phone_numbers_normalized_active_idx ON phone_numbers (address_normalized) WHERE is_active;

-- Browser runs that never start are closed as abandoned by a tick: found by their creation time.
CREATE INDEX workflow_runs_unstarted_idx ON workflow_runs (created_at) WHERE state = 'initialized' AND NOT is_completed;
