-- Which replica placed a call: its live calls are what a draining replica waits for.
ALTER TABLE calls ADD COLUMN placed_by TEXT;
CREATE INDEX calls_placed_by_active_idx ON calls (placed_by) WHERE status IN ('initiated', 'ringing', 'in-progress');
