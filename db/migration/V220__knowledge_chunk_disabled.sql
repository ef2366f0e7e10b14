-- Issue 19: an operator can take a chunk out of retrieval (disabled: neither pgvector, Lucene nor prompts
-- use it) or correct its text (edited_at says when; re-embedded and re-indexed at once) from the console.
ALTER TABLE knowledge_chunk ADD COLUMN disabled BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE knowledge_chunk ADD COLUMN edited_at TIMESTAMPTZ;
