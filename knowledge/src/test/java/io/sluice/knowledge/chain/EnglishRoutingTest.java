package io.sluice.knowledge.chain;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.sluice.knowledge.chain.TierAttempt.Outcome;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.Scripts;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.StoredChunk;
import io.sluice.knowledge.support.SharedEmbedder;
import io.sluice.knowledge.support.TestDatabase;
import io.sluice.knowledge.vector.PgVectorSearcher;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Latin-script queries go to the English model in Lucene; Chinese ones stay with BGE. */
class EnglishRoutingTest {

    @TempDir
    Path dir;

    private final Embedder embedder = SharedEmbedder.get();
    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final RetrievalPlan plan = RetrievalPlan.defaults().withTimeouts(Duration.ofSeconds(10),
        Duration.ofSeconds(10), Duration.ofSeconds(10));
    private LuceneIndex index;

    @BeforeEach
    void indexTwoFaqEntries() {
        index = new LuceneIndex(dir.resolve("idx"), LexicalAnalyzers.create("smartcn"), embedder.dimension(),
            SharedEmbedder.english());
        mirror(new FaqEntry(1, "en-pw", "忘记密码怎么办？", List.of("密码忘了怎么登录", "I forgot my password"),
            "在登录页点击“忘记密码”重置。", "account",
            List.of(), null, null, null));
        mirror(new FaqEntry(2, "en-ship", "多久能发货？", List.of("什么时候发货", "when will my order ship"),
            "付款后48小时内发货。", "shipping",
            List.of(), null, null, null));
    }

    private void mirror(FaqEntry e) {
        var chunks = FaqService.mirrorChunks(e);
        List<float[]> vectors = embedder.embedAll(chunks.stream().map(c -> c.textToEmbed()).toList());
        List<StoredChunk> stored = new java.util.ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            var c = chunks.get(i);
            stored.add(new StoredChunk(Source.FAQ_DOCUMENT_PREFIX + e.key(), e.question(), null, e.category(),
                Instant.now(), null, null, c.ordinal(), c.heading(), c.content(), vectors.get(i)));
        }
        index.upsertDocument(Source.FAQ_DOCUMENT_PREFIX + e.key(), stored);
    }

    @AfterEach
    void close() throws IOException {
        index.close();
        pool.shutdownNow();
    }

    @Test
    void scriptRoutingSendsOnlyLatinTextToTheEnglishModel() {
        assertThat(Scripts.latin("can't remember my login password")).isTrue();
        assertThat(Scripts.latin("忘记密码 password")).isFalse();
        assertThat(Scripts.latin("パスワード")).isFalse();
        assertThat(Scripts.latin("12345 ?!")).isFalse();
    }

    @Test
    void englishParaphraseIsAnsweredByTheEnglishModelInLuceneKnn() {
        RetrievalChain chain = new RetrievalChain(List.of(Tiers.luceneKnn(index), Tiers.bm25(index)), embedder, pool,
            5, Duration.ofSeconds(30));
        RetrievalResult r = chain.retrieve("can't remember my login password", plan);
        assertThat(r.answeredBy()).isEqualTo(LuceneIndex.TIER_KNN);
        assertThat(r.passages().get(0).tier()).isEqualTo(Tiers.ENGLISH_VECTOR_PASSAGE);
        assertThat(r.passages().get(0).source().faqKey()).isEqualTo("en-pw");

        RetrievalResult zh = chain.retrieve("订单什么时候能发出", plan);
        assertThat(zh.passages().get(0).tier()).isEqualTo(LuceneIndex.TIER_KNN);
        assertThat(zh.passages().get(0).source().faqKey()).isEqualTo("en-ship");
    }

    @Test
    void offTopicEnglishQuestionFallsBelowTheEnglishThresholdAndHandsOver() {
        RetrievalChain chain = new RetrievalChain(List.of(Tiers.luceneKnn(index), Tiers.bm25(index)), embedder, pool,
            5, Duration.ofSeconds(30));
        RetrievalResult r = chain.retrieve("what is the boiling point of mercury", plan);
        assertThat(r.trace().get(0).tier()).isEqualTo(LuceneIndex.TIER_KNN);
        assertThat(r.trace().get(0).outcome()).isEqualTo(Outcome.BELOW_THRESHOLD);
        assertThat(r.trace().get(0).bestScore()).isLessThan(RetrievalPlan.DEFAULT_MIN_ENGLISH_VECTOR_SCORE);
    }

    @Test
    void pgvectorStepsAsideForLatinQueriesWhenLuceneHasTheEnglishModel() {
        RetrievalTier pg = Tiers.pgvector(new PgVectorSearcher(TestDatabase.down(), 40), index);
        RetrievalChain chain = new RetrievalChain(List.of(pg, Tiers.luceneKnn(index)), embedder, pool, 5,
            Duration.ofSeconds(30));
        RetrievalResult en = chain.retrieve("when will my order ship", plan);
        assertThat(en.trace().get(0).outcome()).isEqualTo(Outcome.SKIPPED);
        assertThat(en.trace().get(0).reason()).contains("English model");
        assertThat(en.answeredBy()).isEqualTo(LuceneIndex.TIER_KNN);
        assertThat(en.passages().get(0).source().faqKey()).isEqualTo("en-ship");

        RetrievalResult zh = chain.retrieve("什么时候发货", plan);
        assertThat(zh.trace().get(0).outcome()).isEqualTo(Outcome.ERROR);   // tried: the database is down
        assertThat(zh.answeredBy()).isEqualTo(LuceneIndex.TIER_KNN);
    }

    @Test
    void aFailingEnglishModelLeavesTheChunksIndexedAndBgeAnswers() throws IOException {
        Embedder broken = new Embedder() {
            @Override
            public int dimension() {
                return 384;
            }

            @Override
            public String modelId() {
                return "broken";
            }

            @Override
            public List<float[]> embedAll(List<String> texts) {
                throw new IllegalStateException("model not available");
            }
        };
        try (LuceneIndex other = new LuceneIndex(dir.resolve("broken"), LexicalAnalyzers.create("smartcn"),
                embedder.dimension(), broken)) {
            float[] v = embedder.embed("when will my order ship");
            other.upsertDocument("faq:b-1", List.of(new StoredChunk("faq:b-1", "多久能发货？", null, "shipping",
                Instant.now(), null, null, 0, "when will my order ship", "付款后48小时内发货。", v)));
            assertThat(other.count("faq:b-1")).isEqualTo(1);
            assertThat(other.searchKnn(embedder.embed("when does my order ship"),
                new SearchFilter(null, Instant.now()), 5)).extracting(p -> p.source().faqKey()).containsExactly("b-1");
        }
    }
}
