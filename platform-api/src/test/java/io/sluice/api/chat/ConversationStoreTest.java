package io.sluice.api.chat;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.sluice.knowledge.support.TestDatabase;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import tools.jackson.databind.json.JsonMapper;

/** Exchanges stored in one statement against a real PostgreSQL: each session's row once, every message in order. */
class ConversationStoreTest {

    private final JdbcClient jdbc = JdbcClient.create(TestDatabase.get());
    private final ConversationStore store = new ConversationStore(jdbc, JsonMapper.builder().build());

    @Test
    void aGroupStoresEachSessionOnceAndEveryExchangeUserFirst() {
        long client = client();
        UUID chatty = UUID.randomUUID();
        UUID quiet = UUID.randomUUID();
        List<ConversationStore.ExchangeRow> group = List.of(
            exchange(chatty, client, "Where is order 1001?", "On its way."),
            exchange(quiet, client, "Can I return shoes?", "Within 30 days."),
            exchange(chatty, client, "And order 1002?", "Delivered yesterday."));

        store.insert(group);

        assertThat(jdbc.sql("SELECT count(*) FROM conversation WHERE id IN (?, ?)").params(chatty, quiet)
            .query(Long.class).single()).isEqualTo(2);
        assertThat(contents(chatty)).containsExactly("USER:Where is order 1001?", "ASSISTANT:On its way.",
            "USER:And order 1002?", "ASSISTANT:Delivered yesterday.");
        assertThat(contents(quiet)).containsExactly("USER:Can I return shoes?", "ASSISTANT:Within 30 days.");
        assertThat(jdbc.sql("SELECT tier || '/' || latency_ms || '/' || cached || '/' || (sources ->> 0) FROM conversation_message"
                + " WHERE conversation_id = ? AND role = 'ASSISTANT' ORDER BY id LIMIT 1").param(chatty).query(String.class).single())
            .isEqualTo("F2/120/true/faq-7");
    }

    @Test
    void aLaterExchangeOfAKnownSessionMovesItsUpdateTime() {
        long client = client();
        UUID session = UUID.randomUUID();
        store.insert(List.of(exchange(session, client, "Hello", "Hi, how can I help?")));
        jdbc.sql("UPDATE conversation SET updated_at = now() - interval '1 hour' WHERE id = ?").param(session).update();

        store.insert(List.of(exchange(session, client, "My parcel is late", "Let me check.")));

        Timestamp updated = jdbc.sql("SELECT updated_at FROM conversation WHERE id = ?").param(session).query(Timestamp.class).single();
        assertThat(updated.toInstant()).isAfter(java.time.Instant.now().minusSeconds(600));
        assertThat(contents(session)).hasSize(4);
    }

    @Test
    void exchangesRecordedWhileTheDatabaseIsUnreachableFailAsSuchAndConcurrentOnesDoNotQueueBehindIt() throws Exception {
        ConversationStore unreachable = new ConversationStore(
            JdbcClient.create(new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:1/nowhere?connectTimeout=2")),
            JsonMapper.builder().build());
        UUID session = UUID.randomUUID();

        assertThatThrownBy(() -> unreachable.record(exchange(session, 1, "Hello?", "Hi.")))
            .isInstanceOf(DataAccessResourceFailureException.class);
        // right after, callers write on their own (no group in front of an unreachable database), and fail alike
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                calls.add(callers.submit(() -> unreachable.record(exchange(session, 1, "Still there?", "Yes."))));
            }
            for (Future<?> call : calls) {
                assertThatThrownBy(() -> call.get(30, TimeUnit.SECONDS)).hasCauseInstanceOf(DataAccessResourceFailureException.class);
            }
        }
    }

    private static ConversationStore.ExchangeRow exchange(UUID session, long client, String question, String answer) {
        return new ConversationStore.ExchangeRow(session, "user-" + session, client, UUID.randomUUID(), question, answer,
            "F2", "ORDER_STATUS", "P2", 120, true, "[\"faq-7\"]");
    }

    private List<String> contents(UUID session) {
        return jdbc.sql("SELECT role || ':' || content FROM conversation_message WHERE conversation_id = ? ORDER BY id")
            .param(session).query(String.class).list();
    }

    private static long client() {
        return JdbcClient.create(TestDatabase.get()).sql("""
                INSERT INTO api_client (name, key_prefix, key_hash) VALUES (?, 'sk-test', ?) RETURNING id""")
            .params("conversations-" + UUID.randomUUID(), UUID.randomUUID().toString().replace("-", "")
                + UUID.randomUUID().toString().replace("-", ""))
            .query(Long.class).single();
    }
}
