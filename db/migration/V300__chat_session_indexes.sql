-- Chat (issue 5): a client lists its own sessions per user, newest first (GET /api/v1/sessions?userId=).
CREATE INDEX conversation_client_user_idx ON conversation (client_id, user_id, updated_at DESC);
