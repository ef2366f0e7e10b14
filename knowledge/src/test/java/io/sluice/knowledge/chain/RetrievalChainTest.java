package io.sluice.knowledge.chain;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.sluice.knowledge.answer.ExtractiveAnswerComposer;
import io.sluice.knowledge.answer.KnowledgeAnswerService;
import io.sluice.knowledge.chain.TierAttempt.Outcome;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqRepository;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.StoredChunk;
import io.sluice.knowledge.support.SharedEmbedder;
import io.sluice.knowledge.support.TestDatabase;
import io.sluice.knowledge.vector.PgVectorSearcher;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Hand-overs of the chain, with real stores made unavailable the way they fail in production. */
class RetrievalChainTest {

    private static final ExecutorService POOL = Executors.newFixedThreadPool(4);
    private static final String QUESTION = "笔记本电池鼓包了可以免费换吗";

    @TempDir
    Path dir;

    private final Embedder embedder = SharedEmbedder.get();
    private LuceneIndex index;
    private FaqSnapshotService snapshots;
    private final RetrievalPlan plan = RetrievalPlan.defaults().withThresholds(0.3, 0.5, 0.3)
        .withTimeouts(Duration.ofSeconds(3), Duration.ofSeconds(3), Duration.ofSeconds(3));

    @BeforeEach
    void setUp() {
        index = new LuceneIndex(dir.resolve("idx"), LexicalAnalyzers.create("cjk"), embedder.dimension());
        String text = "笔记本电池享受 18 个月保修，鼓包或续航低于 60% 可免费更换。";
        index.upsertDocument("warranty", List.of(new StoredChunk("warranty", "保修政策", null, "policy", Instant.now(),
            null, null, 0, "保修政策 › 电池保修", text, embedder.embed("保修政策 › 电池保修\n" + text))));
        snapshots = new FaqSnapshotService(dir.resolve("snap"), embedder, () -> null, 0.0);
        snapshots.publish(snapshots.build(List.of(
            new FaqEntry(1, "bat-1", "电池鼓包怎么办？", List.of("电池坏了能换吗"), "电池鼓包请停止使用，保修期内免费更换。",
                "returns", List.of(), null, null, null),
            new FaqEntry(2, "pay-1", "支持哪些支付方式？", List.of("可以用什么付款"), "支持支付宝、微信和银行卡。",
                "payments", List.of(), null, null, null))));
    }

    @AfterEach
    void tearDown() throws Exception {
        try {
            index.close();
        } catch (Exception ignored) {
            // some tests close it on purpose
        }
    }

    @AfterAll
    static void stopPool() {
        POOL.shutdownNow();
    }

    private RetrievalChain chain(RetrievalTier... tiers) {
        return new RetrievalChain(List.of(tiers), embedder, POOL, 3, Duration.ofMinutes(1));
    }

    private static RetrievalTier pgvectorDown() {
        return Tiers.pgvector(new PgVectorSearcher(TestDatabase.down(), 40));
    }

    @Test
    void databaseDownHandsOverFromVectorToBm25() {
        RetrievalResult r = chain(pgvectorDown(), Tiers.bm25(index), Tiers.faqSnapshot(snapshots))
            .retrieve(QUESTION, plan);
        assertThat(r.answeredBy()).isEqualTo("bm25");
        assertThat(r.passages().get(0).source().documentId()).isEqualTo("warranty");
        assertThat(r.passages().get(0).tier()).isEqualTo("bm25");
        assertThat(r.trace()).extracting(TierAttempt::tier, TierAttempt::outcome)
            .containsExactly(org.assertj.core.groups.Tuple.tuple("vector:pgvector", Outcome.ERROR),
                org.assertj.core.groups.Tuple.tuple("bm25", Outcome.ANSWERED));
        assertThat(r.trace().get(0).reason()).containsIgnoringCase("connect");
        assertThat(r.path()).isEqualTo("vector:pgvector ERROR → bm25 ANSWERED");
    }

    @Test
    void databaseDownFallsBackToLuceneKnnWhenConfigured() {
        RetrievalResult r = chain(pgvectorDown(), Tiers.luceneKnn(index), Tiers.bm25(index),
            Tiers.faqSnapshot(snapshots)).retrieve(QUESTION, plan);
        assertThat(r.answeredBy()).isEqualTo("vector:lucene-knn");
        assertThat(r.passages().get(0).freshness().ingestedAt()).isNotNull();
    }

    @Test
    void bm25IndexUnreadableHandsOverToTheFaqSnapshot() throws Exception {
        index.close();
        RetrievalResult r = chain(pgvectorDown(), Tiers.bm25(index), Tiers.faqSnapshot(snapshots))
            .retrieve(QUESTION, plan);
        assertThat(r.answeredBy()).isEqualTo("faq-snapshot");
        assertThat(r.trace()).extracting(TierAttempt::outcome)
            .containsExactly(Outcome.ERROR, Outcome.ERROR, Outcome.ANSWERED);
        assertThat(r.trace().get(1).reason()).contains("AlreadyClosed");
        Passage best = r.passages().get(0);
        assertThat(best.source().faqKey()).isEqualTo("bat-1");
        assertThat(best.answer()).contains("免费更换");
    }

    @Test
    void everythingDownStillAnswersF1FromTheSnapshotOnDisk() throws Exception {
        index.close();
        // a fresh start: database unreachable, only the snapshot files on disk
        FaqSnapshotService restarted = new FaqSnapshotService(dir.resolve("snap"), embedder,
            () -> new FaqRepository(TestDatabase.down()), 0.0);
        assertThat(restarted.current().size()).isEqualTo(2);
        RetrievalChain chain = chain(pgvectorDown(), Tiers.luceneKnn(index), Tiers.bm25(index),
            Tiers.faqSnapshot(restarted));
        KnowledgeAnswerService.F1Answer f1 = new KnowledgeAnswerService(chain, new ExtractiveAnswerComposer(3))
            .answer("电池鼓起来了还能用吗", plan);
        assertThat(f1.retrieval().answeredBy()).isEqualTo("faq-snapshot");
        assertThat(f1.retrieval().path())
            .isEqualTo("vector:pgvector ERROR → vector:lucene-knn ERROR → bm25 ERROR → faq-snapshot ANSWERED");
        assertThat(f1.answer().text()).startsWith("电池鼓包请停止使用").contains("来源：常见问题「电池鼓包怎么办？」")
            .contains(ExtractiveAnswerComposer.NOTICE);
    }

    @Test
    void aTierThatTimesOutHandsOverAndItsBreakerOpensAfterRepeatedFailures() {
        CountDownLatch never = new CountDownLatch(1);
        RetrievalTier hung = new RetrievalTier() {
            @Override
            public String name() {
                return "vector:hung";
            }

            @Override
            public TierKind kind() {
                return TierKind.VECTOR;
            }

            @Override
            public List<Passage> search(TierQuery q, int k) throws Exception {
                never.await(10, TimeUnit.SECONDS);
                return List.of();
            }
        };
        RetrievalChain chain = chain(hung, Tiers.bm25(index), Tiers.faqSnapshot(snapshots));
        RetrievalPlan fast = plan.withTimeouts(Duration.ofMillis(50), Duration.ofSeconds(3), Duration.ofSeconds(3));
        List<Outcome> first = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            RetrievalResult r = chain.retrieve(QUESTION, fast);
            first.add(r.trace().get(0).outcome());
            assertThat(r.answeredBy()).isEqualTo("bm25");
        }
        assertThat(first).containsOnly(Outcome.TIMEOUT);
        RetrievalResult skipped = chain.retrieve(QUESTION, fast);
        assertThat(skipped.trace().get(0).outcome()).isEqualTo(Outcome.BREAKER_OPEN);
        assertThat(chain.breakerState("vector:hung")).isEqualTo(TierBreaker.State.OPEN);
        assertThat(skipped.answeredBy()).isEqualTo("bm25");
        never.countDown();
    }

    @Test
    void nothingAboveThresholdHandsOverAndSaysWhy() {
        RetrievalPlan strict = plan.withThresholds(0.99, 1000, 0.3);
        RetrievalResult r = chain(Tiers.luceneKnn(index), Tiers.bm25(index), Tiers.faqSnapshot(snapshots))
            .retrieve(QUESTION, strict);
        assertThat(r.answeredBy()).isEqualTo("faq-snapshot");
        assertThat(r.trace().get(0).outcome()).isEqualTo(Outcome.BELOW_THRESHOLD);
        assertThat(r.trace().get(0).reason()).contains("< 0.990");
        assertThat(r.trace().get(1).outcome()).isEqualTo(Outcome.BELOW_THRESHOLD);
    }

    @Test
    void hitTestShowsEveryTierWithScoresAndTimingsEvenWhenOneFails() {
        RetrievalChain chain = chain(pgvectorDown(), Tiers.luceneKnn(index), Tiers.bm25(index),
            Tiers.faqSnapshot(snapshots));
        io.sluice.knowledge.hittest.HitTestService.Report report = new io.sluice.knowledge.hittest.HitTestService(chain,
            embedder, POOL).test(QUESTION, plan);
        assertThat(report.tiers()).extracting(io.sluice.knowledge.hittest.HitTestService.TierReport::tier)
            .containsExactly("vector:pgvector", "vector:lucene-knn", "bm25", "faq-snapshot");
        assertThat(report.tiers().get(0).error()).isNotNull();
        assertThat(report.tiers().subList(1, 4)).allSatisfy(t -> {
            assertThat(t.error()).isNull();
            assertThat(t.passages()).isNotEmpty();
            assertThat(t.millis()).isPositive();
        });
        assertThat(report.tiers().get(3).passages().get(0).source().faqKey()).isEqualTo("bat-1");
        assertThat(report.chain().answeredBy()).isEqualTo("vector:lucene-knn");
    }

    @Test
    void composerExtractsTheMostRelevantSentencesOfAPassageWithItsSource() {
        RetrievalResult r = chain(Tiers.bm25(index)).retrieve(QUESTION, plan);
        String text = new ExtractiveAnswerComposer(3).compose(r).text();
        assertThat(text).contains("18 个月保修").contains("来源：《保修政策》 › 保修政策 › 电池保修")
            .contains("自动回复");
        RetrievalResult none = chain(Tiers.bm25(index)).retrieve("zzzz qqqq", plan);
        assertThat(new ExtractiveAnswerComposer(3).compose(none).text()).isEqualTo(ExtractiveAnswerComposer.NO_MATCH);
    }
}
