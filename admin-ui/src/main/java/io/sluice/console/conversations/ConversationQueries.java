package io.sluice.console.conversations;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Service;

import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/** Conversations for operators: filtered, paged lists, and a transcript with what each answer was made of. */
@Service
public class ConversationQueries {

    static final Set<String> TIERS = Set.of("F4", "F3", "F2", "F1", "F0");
    static final Set<String> FEEDBACK = Set.of("HELPFUL", "NOT_HELPFUL", "none");
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final JdbcClient jdbc;

    public ConversationQueries(JdbcClient jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * What to list: every field blank = everything. Conversations match when any of their answers
     * matches the tier, intent and feedback given, and they were active between {@code from} and
     * {@code to} (days, UTC, inclusive).
     */
    public record Filter(String text, String tier, String intent, String feedback, String client, LocalDate from,
            LocalDate to) {

        public Filter {
            text = blankToNull(text);
            tier = blankToNull(tier);
            intent = blankToNull(intent);
            feedback = blankToNull(feedback);
            client = blankToNull(client);
            if (tier != null && !TIERS.contains(tier)) {
                throw new IllegalArgumentException("tier is one of F4, F3, F2, F1, F0");
            }
            if (feedback != null && !FEEDBACK.contains(feedback)) {
                throw new IllegalArgumentException("feedback is HELPFUL, NOT_HELPFUL or none");
            }
            if (from != null && to != null && from.isAfter(to)) {
                throw new IllegalArgumentException("'from' is after 'to'");
            }
        }

        public static Filter none() {
            return new Filter(null, null, null, null, null, null, null);
        }

        private static String blankToNull(String s) {
            return s == null || s.isBlank() ? null : s.strip();
        }
    }

    /**
     * One conversation in the list.
     *
     * @param lastQuestion what the customer asked last
     * @param lastTier     the tier of the last answer
     */
    public record Summary(UUID id, String userId, String client, OffsetDateTime updatedAt, long messages,
            String lastQuestion, String lastTier) {
    }

    /** A page of the list; {@code hasNext} when there is a page after it. */
    public record Page(List<Summary> items, int page, int size, boolean hasNext) {
    }

    /** A source an answer used, as the chat reported it. */
    public record SourceView(String kind, String id, String title, Float score) {
    }

    /**
     * One message of a transcript.
     *
     * @param question for an answer, the customer's message it answered (null for the customer's messages)
     */
    public record Message(String role, String content, String tier, String intent, String priority, Integer latencyMs,
            boolean cached, List<SourceView> sources, String feedback, OffsetDateTime at, String question) {

        /** The FAQ entry the answer came from, if any (the default for "save as a variant of"). */
        public String faqKey() {
            return sources.stream().filter(s -> "faq".equalsIgnoreCase(s.kind()) && s.id() != null)
                .map(SourceView::id).findFirst().orElse(null);
        }
    }

    /** Latest conversations matching the filter, newest first, {@code size} per page (page 0 first). */
    public Page search(Filter filter, int page, int size) {
        List<String> where = new ArrayList<>();
        JdbcClient.StatementSpec sql;
        StringBuilder text = new StringBuilder("""
            SELECT c.id, c.user_id, a.name AS client, c.updated_at,
                   (SELECT count(*) FROM conversation_message m WHERE m.conversation_id = c.id) AS messages,
                   (SELECT m.content FROM conversation_message m WHERE m.conversation_id = c.id AND m.role = 'USER'
                    ORDER BY m.id DESC LIMIT 1) AS last_question,
                   (SELECT m.tier FROM conversation_message m WHERE m.conversation_id = c.id AND m.role = 'ASSISTANT'
                    ORDER BY m.id DESC LIMIT 1) AS last_tier
            FROM conversation c LEFT JOIN api_client a ON a.id = c.client_id
            """);
        if (filter.text() != null) {
            where.add("(c.user_id ILIKE :like OR EXISTS (SELECT 1 FROM conversation_message m "
                + "WHERE m.conversation_id = c.id AND m.content ILIKE :like))");
        }
        List<String> answer = new ArrayList<>();
        if (filter.tier() != null) {
            answer.add("m.tier = :tier");
        }
        if (filter.intent() != null) {
            answer.add("m.intent = :intent");
        }
        if (filter.feedback() != null) {
            answer.add("none".equals(filter.feedback()) ? "m.feedback IS NULL" : "m.feedback = :feedback");
        }
        if (!answer.isEmpty()) {
            where.add("EXISTS (SELECT 1 FROM conversation_message m WHERE m.conversation_id = c.id "
                + "AND m.role = 'ASSISTANT' AND " + String.join(" AND ", answer) + ")");
        }
        if (filter.client() != null) {
            where.add("a.name = :client");
        }
        if (filter.from() != null) {
            where.add("c.updated_at >= :from");
        }
        if (filter.to() != null) {
            where.add("c.created_at < :to");
        }
        if (!where.isEmpty()) {
            text.append("WHERE ").append(String.join(" AND ", where)).append('\n');
        }
        text.append("ORDER BY c.updated_at DESC, c.id LIMIT :limit OFFSET :offset");
        sql = jdbc.sql(text.toString());
        if (filter.text() != null) {
            sql = sql.param("like", "%" + filter.text().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%");
        }
        if (filter.tier() != null) {
            sql = sql.param("tier", filter.tier());
        }
        if (filter.intent() != null) {
            sql = sql.param("intent", filter.intent());
        }
        if (filter.feedback() != null && !"none".equals(filter.feedback())) {
            sql = sql.param("feedback", filter.feedback());
        }
        if (filter.client() != null) {
            sql = sql.param("client", filter.client());
        }
        if (filter.from() != null) {
            sql = sql.param("from", filter.from().atStartOfDay().atOffset(ZoneOffset.UTC));
        }
        if (filter.to() != null) {
            sql = sql.param("to", filter.to().plusDays(1).atStartOfDay().atOffset(ZoneOffset.UTC));
        }
        List<Summary> rows = sql.param("limit", size + 1).param("offset", page * size)
            .query((rs, n) -> new Summary(rs.getObject("id", UUID.class), rs.getString("user_id"), rs.getString("client"),
                rs.getObject("updated_at", OffsetDateTime.class), rs.getLong("messages"), rs.getString("last_question"),
                rs.getString("last_tier")))
            .list();
        boolean hasNext = rows.size() > size;
        return new Page(hasNext ? rows.subList(0, size) : rows, page, size, hasNext);
    }

    /** Intents and client names seen, for the filter's choices. */
    public List<String> intents() {
        return jdbc.sql("SELECT DISTINCT intent FROM conversation_message WHERE intent IS NOT NULL ORDER BY 1 LIMIT 200")
            .query(String.class).list();
    }

    public List<String> clients() {
        return jdbc.sql("SELECT name FROM api_client ORDER BY name LIMIT 500").query(String.class).list();
    }

    public List<Message> transcript(UUID conversationId) {
        List<Message> rows = jdbc.sql("""
                SELECT role, content, tier, intent, priority, latency_ms, cached, sources::text AS sources, feedback, created_at
                FROM conversation_message WHERE conversation_id = ? ORDER BY id""")
            .param(conversationId)
            .query((rs, n) -> new Message(rs.getString("role"), rs.getString("content"), rs.getString("tier"),
                rs.getString("intent"), rs.getString("priority"), (Integer) rs.getObject("latency_ms"),
                rs.getBoolean("cached"), sources(rs.getString("sources")), rs.getString("feedback"),
                rs.getObject("created_at", OffsetDateTime.class), null))
            .list();
        // pair each answer with the customer's message before it
        List<Message> out = new ArrayList<>(rows.size());
        String lastQuestion = null;
        for (Message m : rows) {
            if ("USER".equals(m.role())) {
                lastQuestion = m.content();
                out.add(m);
            } else {
                out.add(new Message(m.role(), m.content(), m.tier(), m.intent(), m.priority(), m.latencyMs(), m.cached(),
                    m.sources(), m.feedback(), m.at(), lastQuestion));
            }
        }
        return out;
    }

    static List<SourceView> sources(String json) {
        if (json == null || json.isBlank()) {
            return List.of();
        }
        try {
            return JSON.readValue(json, new TypeReference<List<SourceView>>() { });
        } catch (RuntimeException e) {
            // an older or foreign shape: show it as one raw entry rather than hide it
            return List.of(new SourceView("raw", null, json, null));
        }
    }
}
