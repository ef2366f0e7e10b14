package io.sluice.knowledge.sample;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.RetrievalTier;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.chain.Source;
import io.sluice.knowledge.chain.TierQuery;
import io.sluice.knowledge.chain.Tiers;
import io.sluice.knowledge.embedding.CachingEmbedder;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.EnglishModels;
import io.sluice.knowledge.embedding.NormalizingEmbedder;
import io.sluice.knowledge.embedding.OnnxBgeEnEmbedder;
import io.sluice.knowledge.embedding.OnnxMiniLmEmbedder;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqMatch;
import io.sluice.knowledge.faq.FaqRepository;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.faq.FaqSnapshot;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.ingest.Chunker;
import io.sluice.knowledge.ingest.IngestionService;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.KnowledgeRepository;
import io.sluice.knowledge.store.StoredChunk;
import io.sluice.knowledge.support.SharedEmbedder;
import io.sluice.knowledge.support.TestDatabase;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changing {@code sluice.knowledge.embedding.english-model}: the two selectable English models have the same
 * dimension (384), so only the recorded model id keeps a MiniLM index or snapshot from being searched with
 * BGE-small-en query vectors. Until the rebuild the main model answers Latin-script questions; the knowledge
 * bootstrap rebuilds both at start.
 */
class EnglishModelChangeTest {

    @TempDir
    Path dir;

    private final ExecutorService pool = Executors.newFixedThreadPool(2);
    private final Embedder embedder = SharedEmbedder.get();
    private final Embedder miniLm = new NormalizingEmbedder(new CachingEmbedder(
        EnglishModels.create(OnnxMiniLmEmbedder.MODEL_ID, 16, pool, true), 256));
    private final Embedder bgeEn = new NormalizingEmbedder(new CachingEmbedder(
        EnglishModels.create(OnnxBgeEnEmbedder.MODEL_ID, 16, pool, true), 256));

    private static final List<FaqEntry> FAQ = List.of(
        new FaqEntry(1, "pw", "忘记密码怎么办？", List.of("密码忘了怎么登录", "I forgot my password"),
            "在登录页点击“忘记密码”重置。", "account", List.of(), null, null, null),
        new FaqEntry(2, "ship", "多久能发货？", List.of("什么时候发货", "when will my order ship"),
            "付款后48小时内发货。", "shipping", List.of(), null, null, null));

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private List<StoredChunk> chunks() {
        List<StoredChunk> out = new ArrayList<>();
        for (FaqEntry e : FAQ) {
            var chunks = FaqService.mirrorChunks(e);
            List<float[]> vectors = embedder.embedAll(chunks.stream().map(c -> c.textToEmbed()).toList());
            for (int i = 0; i < chunks.size(); i++) {
                var c = chunks.get(i);
                out.add(new StoredChunk(Source.FAQ_DOCUMENT_PREFIX + e.key(), e.question(), null, e.category(),
                    Instant.now(), null, null, c.ordinal(), c.heading(), c.content(), vectors.get(i)));
            }
        }
        return out;
    }

    private LuceneIndex open(Embedder english) {
        return new LuceneIndex(dir.resolve("idx"), LexicalAnalyzers.create("smartcn"), embedder.dimension(), english);
    }

    private static final SearchFilter ANY = new SearchFilter(null, Instant.now());

    private List<Passage> knn(LuceneIndex index, String question) throws Exception {
        RetrievalTier tier = Tiers.luceneKnn(index);
        return tier.search(new TierQuery(question, embedder.embed(question), ANY), 3);
    }

    @Test
    void anIndexOfAnotherEnglishModelIsNotSearchedWithItUntilRebuilt() throws Exception {
        List<StoredChunk> chunks = chunks();
        try (LuceneIndex index = open(miniLm)) {
            assertThat(index.englishModelCurrent()).as("an empty index is the current model's").isTrue();
            for (FaqEntry e : FAQ) {
                index.upsertDocument(Source.FAQ_DOCUMENT_PREFIX + e.key(),
                    chunks.stream().filter(c -> c.documentId().endsWith(e.key())).toList());
            }
            assertThat(index.searchKnnEnglish("when does my parcel leave", ANY, 3)).isNotEmpty();
        }
        try (LuceneIndex index = open(bgeEn)) {
            assertThat(index.englishModelCurrent()).isFalse();
            // MiniLM vectors are never compared with a BGE-small-en query vector: the main model answers
            assertThat(index.searchKnnEnglish("when does my parcel leave", ANY, 3)).isEmpty();
            List<Passage> found = knn(index, "when does my parcel leave");
            assertThat(found).isNotEmpty();
            assertThat(found).allMatch(p -> p.tier().equals(LuceneIndex.TIER_KNN));
            // a write in between does not make the mixed index current
            index.upsertDocument(Source.FAQ_DOCUMENT_PREFIX + "pw",
                chunks.stream().filter(c -> c.documentId().endsWith("pw")).toList());
            assertThat(index.englishModelCurrent()).isFalse();
        }
        try (LuceneIndex index = open(bgeEn)) {
            assertThat(index.englishModelCurrent()).as("the record survives a restart").isFalse();
            index.replaceAll(chunks);
            assertThat(index.englishModelCurrent()).isTrue();
            List<Passage> found = knn(index, "when does my parcel leave");
            assertThat(found.get(0).tier()).isEqualTo(Tiers.ENGLISH_VECTOR_PASSAGE);
            assertThat(found.get(0).source().faqKey()).isEqualTo("ship");
        }
        try (LuceneIndex index = open(miniLm)) {
            assertThat(index.englishModelCurrent()).as("and back: MiniLM again needs a rebuild").isFalse();
            assertThat(index.searchKnnEnglish("when does my parcel leave", ANY, 3)).isEmpty();
        }
        try (LuceneIndex index = open(null)) {
            assertThat(index.englishModelCurrent()).as("without an English model nothing is read from vec_en").isTrue();
        }
    }

    @Test
    void aSnapshotOfAnotherEnglishModelAnswersWithTheMainModelUntilRebuilt() {
        Path snap = dir.resolve("snap");
        FaqSnapshotService before = new FaqSnapshotService(snap, embedder, miniLm, () -> null, 0.9);
        before.publish(before.build(FAQ));
        assertThat(before.modelsCurrent()).isTrue();

        FaqSnapshotService after = new FaqSnapshotService(snap, embedder, bgeEn, () -> null, 0.9);
        FaqSnapshot old = after.current();
        assertThat(old.englishModelId()).isEqualTo(miniLm.modelId());
        assertThat(after.modelsCurrent()).isFalse();
        String question = "when does my parcel leave the warehouse";
        float[] main = embedder.embed(question);
        // exactly what the main model alone gives: the MiniLM vectors are not compared with a BGE-small-en vector
        List<FaqMatch> matched = after.match(old, question, main, 2, null, Instant.now());
        List<FaqMatch> mainOnly = old.match(question, main, null, 2, null, Instant.now());
        assertThat(matched).extracting(FaqMatch::score).containsExactlyElementsOf(
            mainOnly.stream().map(FaqMatch::score).toList());

        after.publish(after.build(FAQ));
        assertThat(after.modelsCurrent()).isTrue();
        FaqSnapshot rebuilt = after.current();
        assertThat(rebuilt.englishModelId()).isEqualTo(bgeEn.modelId());
        assertThat(rebuilt.usesEnglish(question, bgeEn.embed(question))).isTrue();
        assertThat(after.match(rebuilt, question, main, 1, null, Instant.now()))
            .extracting(m -> m.entry().key()).containsExactly("ship");

        // a snapshot built without any English model is stale once one is configured (it has Latin-script texts)
        Path plain = dir.resolve("plain");
        FaqSnapshotService none = new FaqSnapshotService(plain, embedder, () -> null, 0.9);
        none.publish(none.build(FAQ));
        assertThat(none.modelsCurrent()).isTrue();
        assertThat(new FaqSnapshotService(plain, embedder, bgeEn, () -> null, 0.9).modelsCurrent()).isFalse();
    }

    @Test
    void theBootstrapRebuildsTheIndexAndTheSnapshotWithTheConfiguredEnglishModel() throws Exception {
        List<StoredChunk> chunks = chunks();
        try (LuceneIndex index = open(miniLm)) {
            index.replaceAll(chunks);
        }
        Path snap = dir.resolve("snap");
        FaqSnapshotService old = new FaqSnapshotService(snap, embedder, miniLm, () -> null, 0.9);
        old.publish(old.build(FAQ));

        // the database as the bootstrap reads it: these chunks and entries (no server needed)
        KnowledgeRepository documents = new KnowledgeRepository(TestDatabase.down()) {
            @Override
            public int countChunks() {
                return chunks.size();
            }

            @Override
            public List<StoredChunk> allChunks() {
                return chunks;
            }
        };
        FaqRepository faq = new FaqRepository(TestDatabase.down()) {
            @Override
            public List<FaqEntry> findAll() {
                return FAQ;
            }

            @Override
            public void recordSnapshot(long version, int entries, String checksum, String status, String detail) {
            }
        };
        try (LuceneIndex index = open(bgeEn)) {
            FaqSnapshotService snapshots = new FaqSnapshotService(snap, embedder, bgeEn, () -> faq, 0.9);
            IngestionService ingestion = new IngestionService(documents, index, embedder, new Chunker(200, 40),
                64 * 1024);
            assertThat(index.englishModelCurrent()).isFalse();
            assertThat(snapshots.modelsCurrent()).isFalse();
            try (KnowledgeBootstrap bootstrap = new KnowledgeBootstrap(documents, index, ingestion,
                    new FaqService(faq, ingestion, snapshots, false), snapshots, false)) {
                bootstrap.run();
                assertThat(bootstrap.status()).isEqualTo("ready");
            }
            assertThat(index.englishModelCurrent()).isTrue();
            assertThat(index.searchKnnEnglish("when does my parcel leave", ANY, 1))
                .extracting(p -> p.source().faqKey()).containsExactly("ship");
            assertThat(snapshots.modelsCurrent()).isTrue();
            assertThat(snapshots.current().englishModelId()).isEqualTo(bgeEn.modelId());
        }
    }

    @Test
    void theEnglishModelSettingIsValidated() {
        assertThat(EnglishModels.canonical(" BGE-small-en-v1.5-q ")).isEqualTo(OnnxBgeEnEmbedder.MODEL_ID);
        assertThat(EnglishModels.canonical("all-MiniLM-L6-v2-q")).isEqualTo(OnnxMiniLmEmbedder.MODEL_ID);
        assertThat(EnglishModels.disabled("none")).isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new io.sluice.knowledge.config.KnowledgeProperties
                .Embedding("onnx", null, null, null, 512, 16, 1024, 2, "bge-large-en"))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessageContaining("bge-small-en-v1.5-q").hasMessageContaining("all-minilm-l6-v2-q");
        assertThat(new io.sluice.knowledge.config.KnowledgeProperties.Embedding("onnx", null, null, null, 512, 16,
            1024, 2, "ALL-MINILM-L6-V2-Q").englishModel()).isEqualTo(OnnxMiniLmEmbedder.MODEL_ID);
        // each model's own default bar, and the same FAQ-score scale for both (bar → 0.5)
        assertThat(EnglishModels.toMainScale(OnnxMiniLmEmbedder.MODEL_ID, 0.3)).isCloseTo(0.5, within(1e-9));
        assertThat(EnglishModels.toMainScale(OnnxBgeEnEmbedder.MODEL_ID + "+nfkc-cf-hans", 0.65))
            .isCloseTo(0.5, within(1e-9));
        assertThat(new io.sluice.knowledge.config.KnowledgeProperties.Chain(5, 0.5, 3, 0.5, Duration.ofMillis(200),
            Duration.ofMillis(100), Duration.ofMillis(50), 5, Duration.ofSeconds(30), true, 40, 8, null)
            .minEnglishVectorScore(OnnxBgeEnEmbedder.MODEL_ID)).isEqualTo(0.65);
    }

    private static org.assertj.core.data.Offset<Double> within(double d) {
        return org.assertj.core.data.Offset.offset(d);
    }
}
