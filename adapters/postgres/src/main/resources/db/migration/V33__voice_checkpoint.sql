-- A live call's checkpoint after each finished turn (its conversation, log, usage so far), from which another replica
-- takes the call over when the carrier re-streams it; and how many times the call's media moved (bounded).
ALTER TABLE workflow_runs ADD COLUMN voice_checkpoint jsonb;
ALTER TABLE workflow_runs ADD COLUMN media_moves integer NOT NULL DEFAULT 0;
