package io.sluice.batch.support;

import java.util.UUID;

import org.springframework.jdbc.core.JdbcTemplate;

/** Rows of other features' tables (V1 schema) that batch tasks refer to; always with fresh ids. */
public final class TestData {

    private TestData() {
    }

    public static UUID conversation(JdbcTemplate jdbc, String... userThenAssistant) {
        UUID id = UUID.randomUUID();
        jdbc.update("INSERT INTO conversation (id, user_id) VALUES (?, ?)", id, "batch-test-user");
        for (int i = 0; i < userThenAssistant.length; i++) {
            jdbc.update("INSERT INTO conversation_message (conversation_id, request_id, role, content) VALUES (?, ?, ?, ?)",
                id, UUID.randomUUID(), i % 2 == 0 ? "USER" : "ASSISTANT", userThenAssistant[i]);
        }
        return id;
    }

    public static long document(JdbcTemplate jdbc, String title, String... chunks) {
        Long id = jdbc.queryForObject("""
            INSERT INTO knowledge_document (external_id, title, content_type, content_hash)
            VALUES (?, ?, 'text/markdown', ?) RETURNING id""", Long.class,
            "batch-test-" + UUID.randomUUID(), title, "0".repeat(64));
        for (int i = 0; i < chunks.length; i++) {
            jdbc.update("INSERT INTO knowledge_chunk (document_id, ordinal, content) VALUES (?, ?, ?)", id, i, chunks[i]);
        }
        return id;
    }
}
