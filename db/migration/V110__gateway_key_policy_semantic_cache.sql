-- Gateway keys (issue 16): a key may have its /v1 calls served from the semantic cache (single standalone
-- user turns only, through the chat's verifier). Off unless set: a cached answer is not a fresh one.
ALTER TABLE gateway_key_policy ADD COLUMN semantic_cache BOOLEAN NOT NULL DEFAULT FALSE;
