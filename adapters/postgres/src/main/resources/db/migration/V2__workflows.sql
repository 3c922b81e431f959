-- Workflows: folders, versioned definitions, trigger paths and runs.

CREATE TABLE folders (
    id              BIGSERIAL PRIMARY KEY,
    organization_id BIGINT       NOT NULL REFERENCES organizations (id),
    name            VARCHAR(100) NOT NULL,
    created_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    UNIQUE (organization_id, id)
);
CREATE UNIQUE INDEX folders_organization_name_key ON folders (organization_id, lower(name));

ALTER TABLE workflows
    ADD COLUMN workflow_uuid UUID NOT NULL DEFAULT gen_random_uuid() UNIQUE,
    ADD COLUMN created_by    BIGINT REFERENCES users (id),
    ADD COLUMN folder_id     BIGINT,
    ADD COLUMN updated_at    TIMESTAMPTZ NOT NULL DEFAULT now(),
    ADD CONSTRAINT workflows_folder_fk FOREIGN KEY (organization_id, folder_id)
        REFERENCES folders (organization_id, id) ON DELETE SET NULL (folder_id);
CREATE INDEX workflows_organization_idx ON workflows (organization_id, created_at DESC, id DESC);

-- Every version of a definition. Exactly one published and at most one draft per workflow,
-- guarded by the two partial unique indexes below.
CREATE TABLE workflow_definitions (
    id                         BIGSERIAL PRIMARY KEY,
    organization_id            BIGINT      NOT NULL,
    workflow_id                BIGINT      NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    version_number             INTEGER     NOT NULL CHECK (version_number >= 1),
    status                     TEXT        NOT NULL CHECK (status IN ('draft', 'published', 'archived')),
    workflow_json              JSONB       NOT NULL,
    workflow_configurations    JSONB,
    template_context_variables JSONB,
    created_at                 TIMESTAMPTZ NOT NULL DEFAULT now(),
    published_at               TIMESTAMPTZ,
    UNIQUE (workflow_id, version_number),
    FOREIGN KEY (organization_id, workflow_id) REFERENCES workflows (organization_id, id)
);
CREATE UNIQUE INDEX workflow_definitions_one_published ON workflow_definitions (workflow_id) WHERE status = 'published';
CREATE UNIQUE INDEX workflow_definitions_one_draft ON workflow_definitions (workflow_id) WHERE status = 'draft';

-- Trigger paths of each workflow's draft and published versions: unique in the organization.
CREATE TABLE workflow_trigger_paths (
    organization_id BIGINT NOT NULL,
    trigger_path    TEXT   NOT NULL,
    workflow_id     BIGINT NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    PRIMARY KEY (organization_id, trigger_path)
);
CREATE INDEX workflow_trigger_paths_workflow_idx ON workflow_trigger_paths (workflow_id);

CREATE TABLE workflow_runs (
    id               BIGSERIAL PRIMARY KEY,
    organization_id  BIGINT      NOT NULL,
    workflow_id      BIGINT      NOT NULL REFERENCES workflows (id) ON DELETE CASCADE,
    definition_id    BIGINT      NOT NULL REFERENCES workflow_definitions (id),
    name             VARCHAR(255) NOT NULL,
    mode             TEXT        NOT NULL,
    call_type        TEXT        NOT NULL DEFAULT 'outbound' CHECK (call_type IN ('inbound', 'outbound')),
    state            TEXT        NOT NULL DEFAULT 'initialized' CHECK (state IN ('initialized', 'running', 'completed')),
    is_completed     BOOLEAN     NOT NULL DEFAULT false,
    recording_url    TEXT,
    transcript_url   TEXT,
    usage_info       JSONB,
    cost_info        JSONB,
    initial_context  JSONB,
    gathered_context JSONB,
    logs             JSONB,
    annotations      JSONB,
    campaign_id      BIGINT REFERENCES campaigns (id),
    created_at       TIMESTAMPTZ NOT NULL DEFAULT now(),
    FOREIGN KEY (organization_id, workflow_id) REFERENCES workflows (organization_id, id)
);
CREATE INDEX workflow_runs_workflow_idx ON workflow_runs (organization_id, workflow_id, created_at DESC, id DESC);
