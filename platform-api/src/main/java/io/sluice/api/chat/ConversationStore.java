package io.sluice.api.chat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

import io.sluice.api.problem.StoreFailures;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Repository;

import tools.jackson.databind.ObjectMapper;

/** Conversations and their messages in PostgreSQL (text arrives masked). */
@Repository
public class ConversationStore {

    private final JdbcClient jdbc;
    private final ObjectMapper json;
    private final GroupWriter<ExchangeRow> exchanges;

    public ConversationStore(JdbcClient jdbc, ObjectMapper json) {
        this.jdbc = jdbc;
        this.json = json;
        this.exchanges = new GroupWriter<>(MAX_GROUP, this::insert, row -> insert(List.of(row)), StoreFailures::unavailable);
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
     * Stores the user's message and the answer together, or neither. Exchanges that end at the same time share one
     * statement (see {@link GroupWriter}); this returns once this exchange is stored, as a statement of its own would.
     */
    public void recordExchange(ChatContext ctx, String maskedMessage, String maskedAnswer, long latencyMs) {
        Answer answer = ctx.answer();
        record(new ExchangeRow(ctx.session().id(), ctx.request().userId(), ctx.client().id(), ctx.requestId(),
            maskedMessage, maskedAnswer, answer.tier().name(), ctx.intent() == null ? null : ctx.intent().code(),
            ctx.priority().name(), (int) latencyMs, ctx.cached(), json.writeValueAsString(answer.sources())));
    }

    /** Stores one exchange, with others that end at the same time. */
    void record(ExchangeRow row) {
        exchanges.write(row);
    }

    /** One exchange as stored: the session row and the user's and the assistant's messages. */
    record ExchangeRow(UUID sessionId, String userId, long clientId, UUID requestId, String question, String answer,
            String tier, String intent, String priority, int latencyMs, boolean cached, String sourcesJson) {
    }

    /**
     * Exchanges per statement: at most 19 parameters each, far below PostgreSQL's 65,535; a group this size takes a few
     * milliseconds, so callers that queue behind it do not wait long.
     */
    static final int MAX_GROUP = 64;

    /** One exchange's two rows of the messages' VALUES list, in the order they are inserted. */
    private static final String EXCHANGE_MESSAGES = """
        (CAST(? AS integer), CAST(? AS uuid), CAST(? AS uuid), 'USER', CAST(? AS text), CAST(NULL AS varchar),
         CAST(? AS varchar), CAST(? AS varchar), CAST(NULL AS integer), false, CAST('[]' AS jsonb)),
        (CAST(? AS integer), CAST(? AS uuid), CAST(? AS uuid), 'ASSISTANT', CAST(? AS text), CAST(? AS varchar),
         CAST(? AS varchar), CAST(? AS varchar), CAST(? AS integer), CAST(? AS boolean), CAST(? AS jsonb))""";

    /**
     * The sessions' rows (each once, in id order, so two instances' statements lock them in the same order and cannot
     * deadlock) and every exchange's two messages, in one statement: one round trip and no transaction to open and
     * commit per answer. The messages join the sessions' rows, so they are inserted after them.
     */
    void insert(List<ExchangeRow> rows) {
        Map<UUID, ExchangeRow> sessions = new TreeMap<>();
        rows.forEach(r -> sessions.putIfAbsent(r.sessionId(), r));
        StringBuilder sql = new StringBuilder("WITH conv AS (INSERT INTO conversation (id, user_id, client_id) VALUES ");
        List<Object> params = new ArrayList<>(sessions.size() * 3 + rows.size() * 16);
        String separator = "";
        for (ExchangeRow session : sessions.values()) {
            sql.append(separator).append("(?, ?, ?)");
            params.addAll(Arrays.asList(session.sessionId(), session.userId(), session.clientId()));
            separator = ", ";
        }
        sql.append("""
             ON CONFLICT (id) DO UPDATE SET updated_at = now() RETURNING id)
            INSERT INTO conversation_message
              (conversation_id, request_id, role, content, tier, intent, priority, latency_ms, cached, sources)
            SELECT conv.id, m.request_id, m.role, m.content, m.tier, m.intent, m.priority, m.latency_ms, m.cached, m.sources
            FROM (VALUES """);
        separator = "";
        int order = 0;
        for (ExchangeRow r : rows) {
            sql.append(separator).append(EXCHANGE_MESSAGES);
            params.addAll(Arrays.asList(order, r.sessionId(), r.requestId(), r.question(), r.intent(), r.priority(),
                order + 1, r.sessionId(), r.requestId(), r.answer(), r.tier(), r.intent(), r.priority(), r.latencyMs(),
                r.cached(), r.sourcesJson()));
            order += 2;
            separator = ",\n";
        }
        sql.append("""
            ) AS m (ord, conversation_id, request_id, role, content, tier, intent, priority, latency_ms, cached, sources)
            JOIN conv ON conv.id = m.conversation_id
            ORDER BY m.ord""");
        jdbc.sql(sql.toString()).params(params).update();
    }
}
