-- Knowledge search on pgvector where the extension can be had. knowledge_vector_setup() creates the extension
-- when the server offers it (a superuser's right: pgvector is not a trusted extension), adds embedding_vector
-- (the real[] embedding as a vector, generated, so every writer keeps it) and one HNSW cosine index per common
-- dimension (a partial expression index: HNSW needs a fixed dimension; 3,072 as halfvec, beyond vector's 2,000).
-- It answers whether the column is there. Where pgvector is not installed it changes nothing and answers false,
-- and search keeps the exact cosine over real[]. The service calls it again at every start, so an installation
-- that gains the extension later (CREATE EXTENSION vector by a superuser) uses it from its next start.
CREATE OR REPLACE FUNCTION knowledge_vector_setup() RETURNS boolean LANGUAGE plpgsql AS $setup$
DECLARE
    dims integer;
    kind text;
    index_name text;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_extension WHERE extname = 'vector') THEN
        IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
            RETURN false;
        END IF;
        BEGIN
            CREATE EXTENSION IF NOT EXISTS vector;
        EXCEPTION WHEN OTHERS THEN
            RAISE NOTICE 'pgvector is installed on the server but the extension could not be created: %', SQLERRM;
            RETURN false;
        END;
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = 'knowledge_chunks'::regclass
                   AND attname = 'embedding_vector' AND NOT attisdropped) THEN
        -- NaN or infinite components (a norm that is not a positive finite number) are no vector: left NULL
        ALTER TABLE knowledge_chunks ADD COLUMN IF NOT EXISTS embedding_vector vector GENERATED ALWAYS AS (
            CASE WHEN cardinality(embedding) BETWEEN 1 AND 16000 AND embedding_norm > 0
                      AND embedding_norm < 'Infinity'::real AND embedding_norm <> 'NaN'::real
                 THEN embedding::vector END) STORED;
    END IF;
    FOREACH dims IN ARRAY ARRAY[384, 512, 768, 1024, 1536, 3072] LOOP
        kind := CASE WHEN dims > 2000 THEN 'halfvec' ELSE 'vector' END;
        index_name := format('knowledge_chunks_hnsw_%s_idx', dims);
        IF to_regclass(index_name) IS NULL THEN
            EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON knowledge_chunks USING hnsw'
                    || ' ((embedding_vector::%s(%s)) %s_cosine_ops) WHERE vector_dims(embedding_vector) = %s',
                    index_name, kind, dims, kind, dims);
        END IF;
    END LOOP;
    RETURN true;
END
$setup$;

SELECT knowledge_vector_setup();
