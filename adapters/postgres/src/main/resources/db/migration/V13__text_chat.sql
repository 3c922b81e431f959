-- Text chat sessions: the turns of a textchat run (session_data, the reference's shape), the checkpoint it
-- resumes from, the revision every write is guarded by, and a short claim (busy_token until busy_until) held
-- while a message is answered, so two messages never interleave and a crashed replica lets go.
CREATE TABLE text_chat_sessions (
    workflow_run_id  BIGINT      PRIMARY KEY REFERENCES workflow_runs (id) ON DELETE CASCADE,
    organization_id  BIGINT      NOT NULL,
    workflow_id      BIGINT      NOT NULL,
    revision         INTEGER     NOT NULL DEFAULT 0,
    session_data     JSONB       NOT NULL,
    checkpoint       JSONB       NOT NULL,
    completed        BOOLEAN     NOT NULL DEFAULT false,
    busy_token       TEXT,
    busy_until       TIMESTAMPTZ,
    last_activity_at TIMESTAMPTZ NOT NULL,
    created_at       TIMESTAMPTZ NOT NULL,
    updated_at       TIMESTAMPTZ NOT NULL,
    FOREIGN KEY (organization_id, workflow_id) REFERENCES workflows (organization_id, id)
);
CREATE INDEX text_chat_sessions_open_idx ON text_chat_sessions (last_activity_at) WHERE NOT completed;

-- Scenarios: a text chat saved as a regression test of its agent, named by the chat's run.
CREATE TABLE text_chat_scenarios (
    workflow_run_id BIGINT      PRIMARY KEY REFERENCES workflow_runs (id) ON DELETE CASCADE,
    organization_id BIGINT      NOT NULL,
    workflow_id     BIGINT      NOT NULL,
    name            TEXT        NOT NULL,
    initial_context JSONB       NOT NULL,
    steps           JSONB       NOT NULL,
    created_at      TIMESTAMPTZ NOT NULL,
    updated_at      TIMESTAMPTZ NOT NULL,
    FOREIGN KEY (organization_id, workflow_id) REFERENCES workflows (organization_id, id)
);
CREATE INDEX text_chat_scenarios_workflow_idx ON text_chat_scenarios (organization_id, workflow_id, created_at);
