-- Batch (issue 6): the knowledge-reindex job re-embeds pgvector rows aside, then swaps them in with one
-- UPDATE in one transaction (readers see the old vectors until the commit, then the new ones; no DDL, no
-- lock that a query waits for). Scratch data, rebuilt by every run: UNLOGGED. Only where pgvector exists.
DO $$
BEGIN
    IF EXISTS (SELECT 1 FROM information_schema.columns
               WHERE table_name = 'knowledge_chunk' AND column_name = 'embedding' AND table_schema = current_schema()) THEN
        EXECUTE 'CREATE UNLOGGED TABLE knowledge_chunk_embedding_next ('
             || ' run_id UUID NOT NULL,'
             || ' external_id VARCHAR(200) NOT NULL,'
             || ' ordinal INT NOT NULL,'
             || ' content_md5 CHAR(32) NOT NULL,'
             || ' embedding vector NOT NULL,'
             || ' PRIMARY KEY (run_id, external_id, ordinal))';
    END IF;
END
$$;
