-- Security (issue 14): every API key carries scopes (chat, openai, tasks, knowledge:read, knowledge:write,
-- jobs, admin). Keys created before scopes existed keep only what the demo key has: chat + openai
-- (least privilege); an admin grants more in the console. New rows name their scopes explicitly.
ALTER TABLE api_client ADD COLUMN scopes TEXT[] NOT NULL DEFAULT ARRAY['chat', 'openai']::TEXT[];
ALTER TABLE api_client ALTER COLUMN scopes SET DEFAULT '{}';

-- The audit log names where a change came from: the console (actor = the operator) or the API
-- (actor = the client, client_id set).
ALTER TABLE audit_log ADD COLUMN source VARCHAR(20) NOT NULL DEFAULT 'console';
ALTER TABLE audit_log ADD COLUMN client_id BIGINT;
CREATE INDEX audit_log_client_idx ON audit_log (client_id, at DESC) WHERE client_id IS NOT NULL;
