package io.sluice.api.chat;

import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.annotation.Transactional;

import tools.jackson.databind.ObjectMapper;

/** Conversations and their messages in PostgreSQL. */
@Repository
public class ConversationStore {

    private final JdbcClient jdbc;
    private final ObjectMapper json;

    public ConversationStore(JdbcClient jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** The session when it exists and belongs to this user; otherwise empty (the caller starts a new one). */
    public Optional<UUID> findOwned(UUID sessionId, String userId) {
        return jdbc.sql("SELECT id FROM conversation WHERE id = ? AND user_id = ?")
            .params(sessionId, userId)
            .query(UUID.class)
            .optional();
    }

    /** Stores the user's message and the answer together, or neither. */
    @Transactional
    public void recordExchange(UUID sessionId, String userId, UUID requestId, String message, Answer answer,
            long latencyMs) {
        jdbc.sql("""
                INSERT INTO conversation (id, user_id) VALUES (?, ?)
                ON CONFLICT (id) DO UPDATE SET updated_at = now()""")
            .params(sessionId, userId)
            .update();
        jdbc.sql("INSERT INTO conversation_message (conversation_id, request_id, role, content) VALUES (?, ?, 'USER', ?)")
            .params(sessionId, requestId, message)
            .update();
        jdbc.sql("""
                INSERT INTO conversation_message (conversation_id, request_id, role, content, tier, latency_ms, sources)
                VALUES (?, ?, 'ASSISTANT', ?, ?, ?, CAST(? AS jsonb))""")
            .params(sessionId, requestId, answer.text(), answer.tier().name(), (int) latencyMs,
                json.writeValueAsString(answer.sources()))
            .update();
    }
}
