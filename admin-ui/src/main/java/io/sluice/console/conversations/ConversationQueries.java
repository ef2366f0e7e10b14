package io.sluice.console.conversations;

import java.time.OffsetDateTime;
import java.util.List;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

/** Conversations for operators: search, and a transcript with what each answer was made of. */
@Service
public class ConversationQueries {

    private final JdbcClient jdbc;

    public ConversationQueries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    public record Summary(UUID id, String userId, OffsetDateTime updatedAt, long messages, String lastMessage) {
    }

    public record Message(String role, String content, String tier, String intent, String priority, Integer latencyMs,
            boolean cached, String sources, String feedback, OffsetDateTime at) {
    }

    /** Latest conversations whose user or any message contains the text (blank = all). */
    public List<Summary> search(String text, int limit) {
        String like = "%" + (text == null ? "" : text.trim().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")) + "%";
        return jdbc.sql("""
                SELECT c.id, c.user_id, c.updated_at,
                       (SELECT count(*) FROM conversation_message m WHERE m.conversation_id = c.id) AS messages,
                       (SELECT m.content FROM conversation_message m WHERE m.conversation_id = c.id
                        ORDER BY m.id DESC LIMIT 1) AS last_message
                FROM conversation c
                WHERE c.user_id ILIKE :like
                   OR EXISTS (SELECT 1 FROM conversation_message m WHERE m.conversation_id = c.id AND m.content ILIKE :like)
                ORDER BY c.updated_at DESC LIMIT :limit""")
            .param("like", like)
            .param("limit", limit)
            .query((rs, n) -> new Summary(rs.getObject("id", UUID.class), rs.getString("user_id"),
                rs.getObject("updated_at", OffsetDateTime.class), rs.getLong("messages"), rs.getString("last_message")))
            .list();
    }

    public List<Message> transcript(UUID conversationId) {
        return jdbc.sql("""
                SELECT role, content, tier, intent, priority, latency_ms, cached, sources::text AS sources, feedback, created_at
                FROM conversation_message WHERE conversation_id = ? ORDER BY id""")
            .param(conversationId)
            .query((rs, n) -> new Message(rs.getString("role"), rs.getString("content"), rs.getString("tier"),
                rs.getString("intent"), rs.getString("priority"), (Integer) rs.getObject("latency_ms"),
                rs.getBoolean("cached"), rs.getString("sources"), rs.getString("feedback"),
                rs.getObject("created_at", OffsetDateTime.class)))
            .list();
    }
}
