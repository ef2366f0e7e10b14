package io.sluice.knowledge.faq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import javax.sql.DataSource;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.ingest.Chunker;
import io.sluice.knowledge.ingest.IngestException;
import io.sluice.knowledge.ingest.IngestionService;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.KnowledgeRepository;
import io.sluice.knowledge.support.SharedEmbedder;
import io.sluice.knowledge.support.TestDatabase;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bulk FAQ import against the real PostgreSQL and Lucene: validated first, all or nothing, one snapshot. */
class FaqImportTest {

    @TempDir
    Path dir;

    private final Embedder embedder = SharedEmbedder.get();
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private DataSource db;
    private LuceneIndex index;
    private FaqRepository repository;
    private FaqSnapshotService snapshots;
    private FaqService faq;

    @BeforeEach
    void setUp() {
        db = TestDatabase.get();
        index = new LuceneIndex(dir.resolve("idx"), LexicalAnalyzers.create("smartcn"), embedder.dimension());
        IngestionService ingestion = new IngestionService(new KnowledgeRepository(db), index, embedder,
            new Chunker(400, 80), 64 * 1024);
        repository = new FaqRepository(db);
        snapshots = new FaqSnapshotService(dir.resolve("snap"), embedder, () -> repository, 0.0);
        faq = new FaqService(repository, ingestion, snapshots, false);
    }

    @AfterEach
    void tearDown() throws Exception {
        if (index != null) {
            index.close();
        }
    }

    private FaqEntry entry(String key, String question, String answer) {
        return new FaqEntry(0, key + "-" + run, question, List.of(question + "吗"), answer, "import", List.of(), null,
            null, null);
    }

    @Test
    void anImportStoresEveryEntryAndPublishesOneSnapshotWithThem() {
        long before = snapshots.current().version();
        FaqService.ImportResult result = faq.importAll(List.of(entry("imp-a", "积分怎么兑换？", "在会员中心兑换。"),
            entry("imp-b", "发票怎么开？", "在订单详情申请发票。"), entry("imp-c", "可以开增值税专票吗？", "可以，需填写税号。")));

        assertThat(result.created()).isEqualTo(3);
        assertThat(result.updated()).isZero();
        assertThat(result.snapshotVersion()).isGreaterThan(before);
        assertThat(snapshots.current().version()).isEqualTo(result.snapshotVersion());
        assertThat(snapshots.current().entries()).extracting(FaqEntry::key).contains("imp-a-" + run, "imp-c-" + run);
        assertThat(index.count("faq:imp-b-" + run)).isPositive();

        FaqService.ImportResult again = faq.importAll(List.of(entry("imp-a", "积分怎么兑换？", "在App会员中心兑换。")));
        assertThat(again.updated()).isEqualTo(1);
        assertThat(repository.findByKey("imp-a-" + run).orElseThrow().answer()).isEqualTo("在App会员中心兑换。");
    }

    @Test
    void oneInvalidEntryStoresNoneAndNamesItsPositionWithoutItsText() {
        faq.importAll(List.of(entry("keep", "运费多少？", "满99包邮。")));
        long published = snapshots.current().version();

        assertThatThrownBy(() -> faq.importAll(List.of(entry("keep", "运费多少？", "满199包邮。"),
            entry("bad", "没有答案的问题？", " ")))).isInstanceOfSatisfying(IngestException.class, e -> {
                assertThat(e.problem()).isEqualTo(IngestException.Problem.INVALID);
                assertThat(e.getMessage()).contains("entry 2").doesNotContain("没有答案的问题");
            });
        assertThat(repository.findByKey("keep-" + run).orElseThrow().answer()).isEqualTo("满99包邮。");
        assertThat(repository.findByKey("bad-" + run)).isEmpty();
        assertThat(snapshots.current().version()).isEqualTo(published);

        assertThatThrownBy(() -> faq.importAll(List.of(entry("dup", "一？", "一。"), entry("dup", "二？", "二。"))))
            .hasMessageContaining("entry 2 repeats a key");
        assertThatThrownBy(() -> faq.importAll(List.of(new FaqEntry(0, null, "无键？", List.of(), "答。", null, List.of(),
            null, null, null)))).hasMessageContaining("entry 1 has no key");
    }

    @Test
    void anIndexFailureHalfWayStoresNoneOfTheEntries() throws Exception {
        index.close(); // every index write now fails
        assertThatThrownBy(() -> faq.importAll(List.of(entry("atom-a", "问题一？", "答案一。"),
            entry("atom-b", "问题二？", "答案二。")))).isInstanceOf(RuntimeException.class);
        assertThat(repository.findByKey("atom-a-" + run)).isEmpty();
        assertThat(repository.findByKey("atom-b-" + run)).isEmpty();
        index = null;
    }
}
