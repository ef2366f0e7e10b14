-- The vector tier's column and HNSW (cosine) index, only where the pgvector extension is available
-- (external mode). The embedded default has no pgvector and serves vectors from Lucene KNN instead.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
        EXECUTE 'CREATE EXTENSION IF NOT EXISTS vector';
        EXECUTE 'ALTER TABLE knowledge_chunk ADD COLUMN embedding vector(512)';
        EXECUTE 'CREATE INDEX knowledge_chunk_embedding_hnsw ON knowledge_chunk '
             || 'USING hnsw (embedding vector_cosine_ops) WITH (m = 16, ef_construction = 64)';
    ELSE
        RAISE NOTICE 'pgvector not available: vector tier will use Lucene KNN';
    END IF;
END
$$;
