package io.sluice.app.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Map;

import io.sluice.knowledge.lexical.LuceneIndex;

import org.apache.lucene.index.IndexWriter;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.util.ReflectionTestUtils;

/**
 * M4: once the Lucene writer died (AlreadyClosedException), every POST /api/v1/knowledge/faq answered 500
 * yet left its row; only a restart helped. Now the index reopens its writer and retries once, and the
 * entry, its mirror document and the index write are one transaction (a 5xx stores nothing).
 */
class M4LuceneRecoveryTest extends SecuritySuite {

    @Autowired
    LuceneIndex index;

    @Test
    void aDeadIndexWriterIsReplacedAndTheFaqChangeIsStoredOnce() throws Exception {
        Client editor = client("kb-editor", "knowledge:write");
        IndexWriter writer = (IndexWriter) ReflectionTestUtils.getField(index, "writer");
        writer.rollback(); // the writer dies, as it did during the first start's sample load
        assertThat(writer.isOpen()).isFalse();

        String key = "recover-" + RUN;
        HttpResponse<String> saved = editor.http().postJson("/api/v1/knowledge/faq", JSON.writeValueAsString(Map.of(
            "key", key, "question", "写入器恢复后还能保存吗？", "answer", "可以，索引会自动重新打开。")));

        assertThat(saved.statusCode()).as(saved.body()).isEqualTo(201);
        assertThat(index.count("faq:" + key)).isPositive();
        assertThat(jdbc.sql("SELECT count(*) FROM faq_entry WHERE external_id = ?").param(key).query(Long.class).single())
            .isEqualTo(1);
    }
}
