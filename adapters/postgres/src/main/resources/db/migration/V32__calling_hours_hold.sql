-- Legal calling hours holding a campaign back. A contact held by them: when those hours open for it (uncapped; its
-- next_attempt_at is at most five minutes ahead so it is looked at again); the progress counts such contacts and
-- names the next opening. A campaign whose dispatch they hold back (every due contact outside its hours, none
-- dialed): its log says so once, and once again when it dials again.
ALTER TABLE campaign_contacts ADD COLUMN calling_hours_at TIMESTAMPTZ;
ALTER TABLE campaigns ADD COLUMN calling_hours_held BOOLEAN NOT NULL DEFAULT FALSE;
