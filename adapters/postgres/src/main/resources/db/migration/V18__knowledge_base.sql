-- The knowledge base: documents (processed by a tick on any replica under a lease) and their chunks, ranked by
-- PostgreSQL full-text search and, when the organization has an embeddings model, by the cosine similarity of
-- their embeddings (real[]; every PostgreSQL has it), the two fused by reciprocal rank.
CREATE TABLE knowledge_documents (
    id                  BIGSERIAL PRIMARY KEY,
    organization_id     BIGINT      NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
    uuid                TEXT        NOT NULL UNIQUE,
    filename            TEXT        NOT NULL,
    storage_key         TEXT        NOT NULL,
    file_size_bytes     BIGINT      NOT NULL DEFAULT 0,
    file_hash           TEXT        NOT NULL DEFAULT '',
    mime_type           TEXT        NOT NULL,
    status              TEXT        NOT NULL CHECK (status IN ('pending', 'processing', 'completed', 'failed')),
    processing_error    TEXT,
    total_chunks        INTEGER     NOT NULL DEFAULT 0,
    retrieval_mode      TEXT        NOT NULL CHECK (retrieval_mode IN ('chunked', 'full_document')),
    custom_metadata     JSONB       NOT NULL DEFAULT '{}',
    extraction_metadata JSONB       NOT NULL DEFAULT '{}',
    created_by          BIGINT      NOT NULL,
    created_at          TIMESTAMPTZ NOT NULL,
    updated_at          TIMESTAMPTZ NOT NULL,
    is_active           BOOLEAN     NOT NULL DEFAULT true,
    lease_owner         TEXT,
    lease_until         TIMESTAMPTZ,
    attempts            INTEGER     NOT NULL DEFAULT 0,
    submitted_at        TIMESTAMPTZ
);
CREATE INDEX knowledge_documents_organization_idx ON knowledge_documents (organization_id, created_at DESC)
    WHERE is_active;
-- the tick's claim: the oldest pending document, or one whose processing lease ran out
CREATE INDEX knowledge_documents_claim_idx ON knowledge_documents (created_at)
    WHERE is_active AND submitted_at IS NOT NULL AND status IN ('pending', 'processing');
CREATE INDEX knowledge_documents_hash_idx ON knowledge_documents (organization_id, file_hash)
    WHERE is_active AND status = 'completed';

CREATE TABLE knowledge_chunks (
    id                  BIGSERIAL PRIMARY KEY,
    organization_id     BIGINT      NOT NULL,
    document_id         BIGINT      NOT NULL REFERENCES knowledge_documents (id) ON DELETE CASCADE,
    chunk_index         INTEGER     NOT NULL,
    chunk_text          TEXT        NOT NULL,
    contextualized_text TEXT,
    chunk_metadata      JSONB       NOT NULL DEFAULT '{}',
    search              TSVECTOR    GENERATED ALWAYS AS
                            (to_tsvector('english', coalesce(contextualized_text, chunk_text))) STORED,
    embedding           REAL[],
    embedding_norm      REAL,
    UNIQUE (document_id, chunk_index)
);
CREATE INDEX knowledge_chunks_search_idx ON knowledge_chunks USING GIN (search);
CREATE INDEX knowledge_chunks_organization_idx ON knowledge_chunks (organization_id, document_id);
