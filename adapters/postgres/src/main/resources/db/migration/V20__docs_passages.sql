-- This API's own documentation as passages for the documentation assistant, indexed with the knowledge base's
-- full-text engine. Not a tenant's data: one set for the installation, replaced when the documentation changes.
CREATE TABLE docs_passages (
    id      BIGSERIAL PRIMARY KEY,
    source  TEXT     NOT NULL,
    title   TEXT     NOT NULL,
    body    TEXT     NOT NULL,
    search  TSVECTOR GENERATED ALWAYS AS (setweight(to_tsvector('english', title), 'A')
                || setweight(to_tsvector('english', body), 'B')) STORED
);
CREATE INDEX docs_passages_search_idx ON docs_passages USING GIN (search);

CREATE TABLE docs_index_state (
    singleton BOOLEAN PRIMARY KEY DEFAULT true CHECK (singleton),
    version   TEXT        NOT NULL,
    indexed_at TIMESTAMPTZ NOT NULL
);
