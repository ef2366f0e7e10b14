package io.sluice.knowledge.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqRepository;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.KnowledgeRepository;
import io.sluice.knowledge.support.SharedEmbedder;
import io.sluice.knowledge.support.TestDatabase;
import io.sluice.knowledge.vector.PgVectorSearcher;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Against the real PostgreSQL + pgvector and a real Lucene index on disk. */
class IngestionServiceTest {

    @TempDir
    Path dir;

    private final Embedder embedder = SharedEmbedder.get();
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final String category = "test-" + run;
    private DataSource db;
    private KnowledgeRepository repository;
    private LuceneIndex index;
    private IngestionService ingestion;
    private PgVectorSearcher pgvector;

    @BeforeEach
    void setUp() {
        db = TestDatabase.get();
        repository = new KnowledgeRepository(db);
        index = new LuceneIndex(dir.resolve("idx"), LexicalAnalyzers.create("cjk"), embedder.dimension());
        ingestion = new IngestionService(repository, index, embedder, new Chunker(200, 40), 64 * 1024);
        pgvector = new PgVectorSearcher(db, 40);
        assertThat(repository.hasVectorColumn()).as("the test database has pgvector").isTrue();
    }

    @AfterEach
    void tearDown() throws Exception {
        if (index != null) {
            index.close();
        }
    }

    private DocumentRequest markdown(String id, String text) {
        return DocumentRequest.of(id, id + ".md", "text/markdown", text.getBytes(StandardCharsets.UTF_8))
            .withCategory(category);
    }

    private SearchFilter filter() {
        return new SearchFilter(category, java.time.Instant.now());
    }

    private static final String WARRANTY = """
        # 保修政策

        ## 电池保修

        笔记本电池享受 18 个月保修，鼓包或续航低于 60% 可免费更换。

        ## 屏幕保修

        屏幕出现坏点超过 3 个，一年内免费更换屏幕。
        """;

    @Test
    void ingestThenQueryFindsTheRightChunkInEveryTier() {
        String id = "doc-" + run;
        List<String> stages = new java.util.concurrent.CopyOnWriteArrayList<>();
        IngestResult result = ingestion.ingest(markdown(id, WARRANTY), (job, stage, done, total) -> stages.add(stage));
        assertThat(stages).containsSubsequence("parse", "embed", "store", "index");
        assertThat(ingestion.jobs()).anySatisfy(j -> {
            assertThat(j.externalId()).isEqualTo(id);
            assertThat(j.stage()).isEqualTo("done");
        });
        assertThat(result.outcome()).isEqualTo(IngestResult.Outcome.CREATED);
        assertThat(result.chunks()).isEqualTo(2);

        String question = "电脑电池鼓起来了能免费换吗";
        float[] q = embedder.embed(question);
        List<Passage> vec = pgvector.search(q, filter(), 3);
        List<Passage> knn = index.searchKnn(q, filter(), 3);
        List<Passage> bm25 = index.searchBm25(question, filter(), 3);
        for (List<Passage> hits : List.of(vec, knn, bm25)) {
            assertThat(hits).isNotEmpty();
            assertThat(hits.get(0).source().documentId()).isEqualTo(id);
            assertThat(hits.get(0).source().heading()).isEqualTo("保修政策 › 电池保修");
            assertThat(hits.get(0).text()).contains("18 个月");
            assertThat(hits.get(0).freshness().ingestedAt()).isEqualTo(result.ingestedAt());
        }
        assertThat(vec.get(0).tier()).isEqualTo("vector:pgvector");
        assertThat(vec.get(0).score()).isBetween(0.3, 1.0);
    }

    @Test
    void reingestingUnchangedContentIsANoOp() {
        String id = "same-" + run;
        IngestResult first = ingestion.ingest(markdown(id, WARRANTY));
        IngestResult again = ingestion.ingest(markdown(id, WARRANTY));
        assertThat(again.outcome()).isEqualTo(IngestResult.Outcome.UNCHANGED);
        assertThat(again.version()).isEqualTo(first.version());
        assertThat(repository.find(id).orElseThrow().version()).isEqualTo(1);
    }

    @Test
    void updateReplacesChunksAtomicallyQueriesSeeOldOrNewNeverNone() throws Exception {
        String id = "atomic-" + run;
        ingestion.ingest(markdown(id, "# 运费\n\n满 99 元包邮，版本 0。\n"));
        String question = "多少钱包邮";
        float[] q = embedder.embed(question);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger queries = new AtomicInteger();
        ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        Thread reader = new Thread(() -> {
            while (!stop.get()) {
                List<Passage> pg = pgvector.search(q, filter(), 5);
                List<Passage> lex = index.searchBm25(question, filter(), 5);
                List<Passage> knn = index.searchKnn(q, filter(), 5);
                for (List<Passage> hits : List.of(pg, lex, knn)) {
                    long mine = hits.stream().filter(p -> p.source().documentId().equals(id)).count();
                    if (mine != 1) {
                        problems.add("saw " + mine + " chunks of the document");
                    }
                }
                queries.incrementAndGet();
            }
        });
        reader.start();
        for (int v = 1; v <= 6; v++) {
            IngestResult r = ingestion.ingest(markdown(id, "# 运费\n\n满 " + (99 + v) + " 元包邮，版本 " + v + "。\n"));
            assertThat(r.outcome()).isEqualTo(IngestResult.Outcome.UPDATED);
        }
        stop.set(true);
        reader.join();
        assertThat(queries.get()).isPositive();
        assertThat(problems).isEmpty();
        assertThat(index.searchBm25(question, filter(), 1).get(0).text()).contains("版本 6");
        assertThat(pgvector.search(q, filter(), 1).get(0).text()).contains("版本 6");
        assertThat(repository.find(id).orElseThrow().version()).isEqualTo(7);
    }

    @Test
    void deleteRemovesTheDocumentFromEveryTier() {
        String id = "gone-" + run;
        ingestion.ingest(markdown(id, WARRANTY));
        assertThat(ingestion.delete(id)).isTrue();
        float[] q = embedder.embed("屏幕坏点");
        assertThat(repository.find(id)).isEmpty();
        assertThat(pgvector.search(q, filter(), 5)).noneMatch(p -> p.source().documentId().equals(id));
        assertThat(index.searchKnn(q, filter(), 5)).noneMatch(p -> p.source().documentId().equals(id));
        assertThat(index.searchBm25("屏幕坏点", filter(), 5)).noneMatch(p -> p.source().documentId().equals(id));
        assertThat(index.count(id)).isZero();
        assertThat(ingestion.delete(id)).isFalse();
    }

    @Test
    void badInputIsRefusedWithAClearProblemAndNothingIsStored() {
        String id = "bad-" + run;
        assertProblem(() -> ingestion.ingest(DocumentRequest.of(id, "a.md", "text/markdown", new byte[0])),
            IngestException.Problem.EMPTY, "empty");
        assertProblem(() -> ingestion.ingest(DocumentRequest.of(id, "a.md", "text/markdown",
            "   \n\n  ".getBytes(StandardCharsets.UTF_8))), IngestException.Problem.EMPTY, "no text");
        assertProblem(() -> ingestion.ingest(DocumentRequest.of(id, "a.txt", "text/plain",
            new byte[] {(byte) 0x89, 'P', 'N', 'G', 0, 0, 0, 13, 1, 2})), IngestException.Problem.BINARY, "binary");
        assertProblem(() -> ingestion.ingest(DocumentRequest.of(id, "a.md", "text/markdown",
            "退".repeat(30_000).getBytes(StandardCharsets.UTF_8))), IngestException.Problem.TOO_LARGE, "limit");
        assertProblem(() -> ingestion.ingest(DocumentRequest.of(id, "a.docx", "application/msword",
            "hello".getBytes(StandardCharsets.UTF_8))), IngestException.Problem.UNSUPPORTED_TYPE, "unsupported");
        assertProblem(() -> ingestion.ingest(DocumentRequest.of(id, "a.pdf", "application/pdf",
            "not a pdf".getBytes(StandardCharsets.UTF_8))), IngestException.Problem.INVALID, "PDF");
        assertThat(repository.find(id)).isEmpty();
        assertThat(index.count(id)).isZero();

        FaqSnapshotService snapshots = new FaqSnapshotService(dir.resolve("snap"), embedder,
            () -> new FaqRepository(db), 0.0);
        FaqService faq = new FaqService(new FaqRepository(db), ingestion, snapshots, false);
        String key = "nofaq-" + run;
        assertProblem(() -> faq.save(new FaqEntry(0, key, "没有答案的问题？", List.of("x"), "  ", "orders",
            List.of(), null, null, null)), IngestException.Problem.INVALID, "has no answer");
        assertThat(new FaqRepository(db).findByKey(key)).isEmpty();
        assertThat(index.count("faq:" + key)).isZero();
    }

    @Test
    void aFailingIndexWriteStoresNothingInTheDatabase() throws Exception {
        String id = "atomic-" + run;
        String key = "atomic-faq-" + run;
        FaqSnapshotService snapshots = new FaqSnapshotService(dir.resolve("snap-atomic"), embedder,
            () -> new FaqRepository(db), 0.0);
        FaqService faq = new FaqService(new FaqRepository(db), ingestion, snapshots, false);
        index.close(); // closed for good (not a dead writer): every index write now fails

        assertThatThrownBy(() -> ingestion.ingest(markdown(id, WARRANTY))).isInstanceOf(RuntimeException.class);
        assertThat(repository.find(id)).as("the document rows rolled back with the index write").isEmpty();
        assertThatThrownBy(() -> faq.save(new FaqEntry(0, key, "原子写入的问题？", List.of(), "答案", "orders",
            List.of(), null, null, null))).isInstanceOf(RuntimeException.class);
        assertThat(new FaqRepository(db).findByKey(key)).as("the FAQ row rolled back with its mirror").isEmpty();
        index = null;
    }

    @Test
    void updateThatFailsValidationKeepsThePreviousVersion() {
        String id = "keep-" + run;
        ingestion.ingest(markdown(id, WARRANTY));
        assertProblem(() -> ingestion.ingest(markdown(id, "").withContent(new byte[0])),
            IngestException.Problem.EMPTY, "empty");
        assertThat(repository.find(id).orElseThrow().version()).isEqualTo(1);
        assertThat(index.count(id)).isEqualTo(2);
    }

    @Test
    void faqEntriesAreMirroredIntoTheDocumentTiersAndDeletedFromThem() {
        FaqRepository faqRepo = new FaqRepository(db);
        FaqSnapshotService snapshots = new FaqSnapshotService(dir.resolve("snap"), embedder, () -> faqRepo, 0.0);
        FaqService faq = new FaqService(faqRepo, ingestion, snapshots, false);
        String key = "gift-" + run;
        FaqEntry saved = faq.save(new FaqEntry(0, key, "礼品卡可以退吗？", List.of("购物卡能退款吗"), "礼品卡一经售出不退不换。",
            category, List.of(), null, null, null));
        assertThat(saved.id()).isPositive();
        List<Passage> hits = index.searchBm25("礼品卡退款", filter(), 3);
        assertThat(hits).extracting(p -> p.source().faqKey()).contains(key);
        assertThat(faq.delete(key)).isTrue();
        assertThat(faqRepo.findByKey(key)).isEmpty();
        assertThat(index.count("faq:" + key)).isZero();
        assertThat(repository.find("faq:" + key)).isEmpty();
    }

    private static void assertProblem(org.assertj.core.api.ThrowableAssert.ThrowingCallable call,
            IngestException.Problem problem, String messagePart) {
        assertThatThrownBy(call).isInstanceOfSatisfying(IngestException.class, e -> {
            assertThat(e.problem()).isEqualTo(problem);
            assertThat(e.getMessage()).contains(messagePart);
        });
    }
}
