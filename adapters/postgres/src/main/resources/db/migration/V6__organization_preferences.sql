-- Organization preferences (test phone number for single calls, default time zone, PBX integrations).
ALTER TABLE organizations ADD COLUMN preferences JSONB NOT NULL DEFAULT '{}'::jsonb;
