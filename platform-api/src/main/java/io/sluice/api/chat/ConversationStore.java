package io.sluice.api.chat;

import java.util.Optional;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import tools.jackson.databind.ObjectMapper;

/** Conversations and their messages in PostgreSQL (text arrives masked). */
@Repository
public class ConversationStore {

    private final JdbcClient jdbc;
    private final ObjectMapper json;

    public ConversationStore(JdbcClient jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
    }

    /** A stored question and where it was asked. */
    public record Exchange(UUID sessionId, String userId, String question) {
    }

    /** The exchange with this request id, if this client made it. */
    public Optional<Exchange> findExchange(UUID requestId, long clientId) {
        return jdbc.sql("""
                SELECT c.id, c.user_id, m.content FROM conversation_message m JOIN conversation c ON c.id = m.conversation_id
                WHERE m.request_id = ? AND m.role = 'USER' AND c.client_id = ?""")
            .params(requestId, clientId)
            .query((rs, row) -> new Exchange(rs.getObject("id", UUID.class), rs.getString("user_id"), rs.getString("content")))
            .optional();
    }

    public void recordFeedback(UUID requestId, String feedback) {
        jdbc.sql("UPDATE conversation_message SET feedback = ? WHERE request_id = ? AND role = 'ASSISTANT'")
            .params(feedback, requestId)
            .update();
    }

    /**
     * Stores the user's message and the answer together, or neither: one statement (the session row and
     * both messages), so one round trip and no transaction to open and commit on every answer.
     */
    public void recordExchange(ChatContext ctx, String maskedMessage, String maskedAnswer, long latencyMs) {
        UUID sessionId = ctx.session().id();
        Answer answer = ctx.answer();
        String intent = ctx.intent() == null ? null : ctx.intent().code();
        String priority = ctx.priority().name();
        jdbc.sql("""
                WITH conv AS (
                    INSERT INTO conversation (id, user_id, client_id) VALUES (?, ?, ?)
                    ON CONFLICT (id) DO UPDATE SET updated_at = now()
                    RETURNING id)
                INSERT INTO conversation_message
                  (conversation_id, request_id, role, content, tier, intent, priority, latency_ms, cached, sources)
                SELECT conv.id, m.request_id, m.role, m.content, m.tier, m.intent, m.priority, m.latency_ms, m.cached,
                       m.sources
                FROM conv CROSS JOIN (VALUES
                    (1, CAST(? AS uuid), 'USER', CAST(? AS text), CAST(NULL AS varchar), CAST(? AS varchar),
                     CAST(? AS varchar), CAST(NULL AS integer), false, CAST('[]' AS jsonb)),
                    (2, CAST(? AS uuid), 'ASSISTANT', CAST(? AS text), CAST(? AS varchar), CAST(? AS varchar),
                     CAST(? AS varchar), CAST(? AS integer), CAST(? AS boolean), CAST(? AS jsonb))
                  ) AS m (ord, request_id, role, content, tier, intent, priority, latency_ms, cached, sources)
                ORDER BY m.ord""")
            .params(sessionId, ctx.request().userId(), ctx.client().id(),
                ctx.requestId(), maskedMessage, intent, priority,
                ctx.requestId(), maskedAnswer, answer.tier().name(), intent, priority, (int) latencyMs, ctx.cached(),
                json.writeValueAsString(answer.sources()))
            .update();
    }
}
