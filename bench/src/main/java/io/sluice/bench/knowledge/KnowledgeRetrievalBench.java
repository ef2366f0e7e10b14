package io.sluice.bench.knowledge;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

import javax.sql.DataSource;

import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.embedding.OnnxBgeEmbedder;
import io.sluice.knowledge.embedding.EnglishModels;
import io.sluice.knowledge.embedding.OnnxEmbedder;
import io.sluice.knowledge.embedding.Scripts;
import io.sluice.knowledge.embedding.Vectors;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.faq.FaqSnapshot;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.ingest.Chunker;
import io.sluice.knowledge.ingest.DocumentFormat;
import io.sluice.knowledge.ingest.DocumentParser;
import io.sluice.knowledge.ingest.DocumentRequest;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.sample.SampleKnowledgeBase;
import io.sluice.knowledge.sample.SampleKnowledgeBase.EvalQuestion;
import io.sluice.knowledge.store.KnowledgeRepository;
import io.sluice.knowledge.store.KnowledgeRepository.DocumentMeta;
import io.sluice.knowledge.store.StoredChunk;
import io.sluice.knowledge.vector.PgVectorSearcher;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.HdrHistogram.Histogram;
import org.flywaydb.core.Flyway;

/**
 * Retrieval benchmark: 10,000 chunks; p50/p99 of each tier and of embedding one query; HNSW
 * recall@10 against exact search. Not a test: run it by hand (see docs/benchmarks-knowledge.md).
 *
 * <p>Corpus: the sample knowledge base's real chunks (documents + FAQ mirrors), embedded with
 * BGE-small-zh, then expanded to N chunks by variants: the text gets a distinct product/store
 * suffix (so BM25 sees N distinct documents) and the vector a small Gaussian perturbation
 * (renormalized), which makes tight clusters of near-duplicates: a hard case for HNSW recall.
 *
 * <p>Arguments: {@code [chunks=10000] [queries=500]}. Environment: {@code SLUICE_DB_URL} (PostgreSQL
 * with pgvector) enables the pgvector tier: the schema is migrated ({@code db/migration}) if needed, the
 * searcher goes through a connection pool as in the application, and the bench rows ({@code bench/*})
 * are removed at the end. One command: {@code bench/run-knowledge-bench.sh}.
 *
 * <p>Latin-script (English) questions also take the English model (all-MiniLM-L6-v2) as in production:
 * its query embedding, the Lucene {@code vec_en} field and the FAQ snapshot's English vectors.
 */
public final class KnowledgeRetrievalBench {

    private KnowledgeRetrievalBench() {
    }

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int queries = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        ExecutorService pool = Executors.newFixedThreadPool(2);
        OnnxBgeEmbedder embedder = new OnnxBgeEmbedder(16, pool);
        OnnxEmbedder englishModel = EnglishModels.create(EnglishModels.DEFAULT, 16, pool, true);
        Path work = Files.createTempDirectory("sluice-bench-knowledge");
        StringBuilder report = new StringBuilder();
        String loadBefore = MachineInfo.loadAverage();
        System.out.println(MachineInfo.describe());
        System.out.printf("settings: %d chunks, %d queries, single thread, top 5; Lucene smartcn + HNSW (default"
            + " parameters); models %s (512-dim) and %s (384-dim, Latin-script only); FAQ snapshot blended"
            + " 0.7 cosine + 0.3 keywords%n", n, queries, OnnxBgeEmbedder.MODEL_ID, EnglishModels.DEFAULT);
        System.out.println("load average at start: " + loadBefore);

        // 1. corpus
        long t0 = System.nanoTime();
        List<StoredChunk> base = sampleChunks(embedder);
        System.out.printf("embedded %d real chunks in %.1f s%n", base.size(), (System.nanoTime() - t0) / 1e9);
        List<StoredChunk> corpus = expand(base, n, new Random(42));
        List<EvalQuestion> eval = SampleKnowledgeBase.evalQuestions();
        List<String> qTexts = new ArrayList<>();
        for (int i = 0; i < queries; i++) {
            qTexts.add(eval.get(i % eval.size()).question());
        }

        // 2. embedding one query (no cache), distinct texts first
        Histogram embedH = hist();
        List<float[]> qVectors = new ArrayList<>();
        int distinct = Math.min(eval.size(), queries);
        for (int i = 0; i < 20; i++) {
            embedder.embed("预热 warm-up " + i);
        }
        for (int i = 0; i < distinct; i++) {
            long s = System.nanoTime();
            qVectors.add(embedder.embed(eval.get(i).question()));
            embedH.recordValue(micros(s));
        }
        for (int i = distinct; i < queries; i++) {
            qVectors.add(qVectors.get(i % distinct));
        }
        row(report, "embed one query (BGE-small-zh q, ONNX, in process)", embedH);
        // the English model, for the Latin-script questions only (as routed in production)
        List<Integer> latin = new ArrayList<>();
        for (int i = 0; i < queries; i++) {
            if (Scripts.latin(qTexts.get(i))) {
                latin.add(i);
            }
        }
        for (int i = 0; i < 20; i++) {
            englishModel.embed("warm-up question " + i);
        }
        Histogram embedEnH = hist();
        java.util.Map<Integer, float[]> enVectors = new java.util.HashMap<>();
        for (int i : latin) {
            if (i < distinct) {
                long s = System.nanoTime();
                enVectors.put(i, englishModel.embed(qTexts.get(i)));
                embedEnH.recordValue(micros(s));
            } else {
                enVectors.put(i, enVectors.get(i % distinct));
            }
        }
        row(report, "embed one query (all-MiniLM-L6-v2 q, Latin-script questions)", embedEnH);

        // 3. Lucene: BM25 and KNN
        LuceneIndex index = new LuceneIndex(work.resolve("lucene"), LexicalAnalyzers.create("smartcn"), 512,
            englishModel);
        t0 = System.nanoTime();
        index.replaceAll(corpus);
        System.out.printf("Lucene index of %d chunks built in %.1f s%n", index.size(), (System.nanoTime() - t0) / 1e9);
        SearchFilter all = new SearchFilter(null, Instant.now());
        warm(() -> index.searchBm25(qTexts.get(0), all, 5), 200);
        rows(report, "BM25 (Lucene, smartcn), top 5", measure(queries, i -> index.searchBm25(qTexts.get(i), all, 5)));
        warm(() -> index.searchKnn(qVectors.get(0), all, 5), 200);
        rows(report, "vector, Lucene KNN (HNSW, BGE), top 5",
            measure(queries, i -> index.searchKnn(qVectors.get(i), all, 5)));
        // the English field: searchKnnEnglish embeds its query itself, so warm the model's cache-free path
        // and time the search part by subtracting nothing: it includes the MiniLM query embedding
        warm(() -> index.searchKnnEnglish("warm-up question", all, 5), 50);
        Histogram knnEn = hist();
        for (int i : latin) {
            long s = System.nanoTime();
            index.searchKnnEnglish(qTexts.get(i), all, 5);
            knnEn.recordValue(micros(s));
        }
        row(report, "vector, Lucene KNN English field (HNSW, MiniLM), top 5, including the query embedding",
            knnEn);
        double luceneRecall = recallLucene(index, corpus, qVectors.subList(0, Math.min(200, distinct)), all);

        // 4. FAQ snapshot
        FaqSnapshotService snapshots = new FaqSnapshotService(work.resolve("snap"), embedder, englishModel,
            () -> null, 0.9);
        FaqSnapshot snapshot = snapshots.build(SampleKnowledgeBase.faq());
        snapshots.publish(snapshot);
        warm(() -> snapshot.match(qTexts.get(0), qVectors.get(0), enVectors.get(0), 5, null, Instant.now()), 500);
        rows(report, "FAQ snapshot (" + snapshot.size() + " entries, " + countTexts(snapshot) + " texts), top 5,"
            + " query vectors given", measure(queries,
                i -> snapshot.match(qTexts.get(i), qVectors.get(i), enVectors.get(i), 5, null, Instant.now())));

        // 5. pgvector
        String url = System.getenv("SLUICE_DB_URL");
        String recallLine = String.format("Lucene KNN recall@10 vs exact (brute force): %.3f%n", luceneRecall);
        if (url != null && !url.isBlank()) {
            // pooled like the application's DataSource: a connection per query would measure TCP + auth
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(url);
            config.setMaximumPoolSize(2);
            try (HikariDataSource ds = new HikariDataSource(config)) {
                Flyway.configure().dataSource(ds).locations("filesystem:db/migration").load().migrate();
                recallLine += pgvector(ds, corpus, qVectors, distinct, report);
            }
        } else {
            report.append("| pgvector | skipped: SLUICE_DB_URL not set | | | |\n");
        }
        System.out.println();
        System.out.println("| what | n | p50 ms | p99 ms | max ms |");
        System.out.println("|---|---|---|---|---|");
        System.out.print(report);
        System.out.print(recallLine);
        System.out.println("load average at start: " + loadBefore + "; at end: " + MachineInfo.loadAverage());
        index.close();
        pool.shutdownNow();
    }

    private static String pgvector(DataSource ds, List<StoredChunk> corpus, List<float[]> qVectors, int distinct,
            StringBuilder report) {
        KnowledgeRepository repo = new KnowledgeRepository(ds);
        if (!repo.hasVectorColumn()) {
            report.append("| pgvector | skipped: no pgvector column | | | |\n");
            return "";
        }
        long t0 = System.nanoTime();
        int perDoc = 100;
        for (int from = 0; from < corpus.size(); from += perDoc) {
            List<StoredChunk> part = corpus.subList(from, Math.min(corpus.size(), from + perDoc));
            String id = "bench/" + (from / perDoc);
            List<StoredChunk> renumbered = new ArrayList<>();
            for (int i = 0; i < part.size(); i++) {
                StoredChunk c = part.get(i);
                renumbered.add(new StoredChunk(id, c.title(), null, "bench", c.ingestedAt(), null, null, i, c.heading(),
                    c.content(), c.embedding()));
            }
            repo.replace(new DocumentMeta(id, "bench " + from, null, "text/markdown", "bench", List.of(), null, null),
                "0".repeat(64), renumbered);
        }
        System.out.printf("pgvector: %d chunks stored (HNSW maintained on insert) in %.1f s%n", corpus.size(),
            (System.nanoTime() - t0) / 1e9);
        // what autovacuum would do after a bulk load, done now so it does not run (and compete) while timing
        t0 = System.nanoTime();
        new org.springframework.jdbc.core.JdbcTemplate(ds).execute("VACUUM ANALYZE knowledge_chunk, knowledge_document");
        System.out.printf("pgvector: VACUUM ANALYZE in %.1f s%n", (System.nanoTime() - t0) / 1e9);
        StringBuilder recall = new StringBuilder();
        try {
            SearchFilter all = new SearchFilter(null, Instant.now());
            // the configured default (sluice.knowledge.chain.ef-search); more with SLUICE_BENCH_EF_SEARCH=40,100
            int[] efs = java.util.Arrays.stream(System.getenv().getOrDefault("SLUICE_BENCH_EF_SEARCH", "40").split(","))
                .mapToInt(x -> Integer.parseInt(x.trim())).toArray();
            for (int ef : efs) {
                PgVectorSearcher searcher = new PgVectorSearcher(ds, ef);
                warm(() -> searcher.search(qVectors.get(0), all, 5), 100);
                rows(report, "vector, pgvector HNSW (m=16, ef_construction=64, ef-search " + ef
                    + ", rows 10·k, iterative scan, custom plan, no seq scan), top 5",
                    measure(qVectors.size(), i -> searcher.search(qVectors.get(i), all, 5)));
                int hits = 0;
                int total = 0;
                Histogram exactH = hist();
                for (int i = 0; i < Math.min(200, distinct); i++) {
                    float[] q = qVectors.get(i);
                    Set<String> truth = keys(timed(() -> searcher.searchExact(q, all, 10), exactH));
                    Set<String> approx = keys(searcher.search(qVectors.get(i), all, 10));
                    for (String k : approx) {
                        if (truth.contains(k)) {
                            hits++;
                        }
                    }
                    total += truth.size();
                }
                if (ef == efs[0]) {
                    row(report, "exact scan (pgvector, no index), top 10", exactH);
                }
                recall.append(String.format("pgvector HNSW recall@10 vs exact, ef-search %d: %.3f (%d queries)%n", ef,
                    (double) hits / total, Math.min(200, distinct)));
            }
        } finally {
            for (int from = 0; from < corpus.size(); from += perDoc) {
                repo.delete("bench/" + (from / perDoc));
            }
        }
        return recall.toString();
    }

    private static <T> T timed(Supplier<T> s, Histogram h) {
        long t = System.nanoTime();
        T v = s.get();
        h.recordValue(micros(t));
        return v;
    }

    private static Set<String> keys(List<Passage> passages) {
        Set<String> out = new HashSet<>();
        for (Passage p : passages) {
            out.add(p.source().documentId() + "#" + p.text().hashCode() + "#" + p.source().heading());
        }
        return out;
    }

    /** Recall@10 of Lucene's HNSW against a brute-force scan over the same vectors (FAQ collapse off: doc chunks). */
    private static double recallLucene(LuceneIndex index, List<StoredChunk> corpus, List<float[]> queries,
            SearchFilter all) {
        int hits = 0;
        int total = 0;
        for (float[] q : queries) {
            List<StoredChunk> sorted = new ArrayList<>(corpus);
            sorted.sort((a, b) -> Float.compare(Vectors.dot(q, b.embedding()), Vectors.dot(q, a.embedding())));
            Set<String> truth = new HashSet<>();
            Set<String> seenFaq = new HashSet<>();
            for (StoredChunk c : sorted) {
                if (c.documentId().startsWith("faq:") && !seenFaq.add(c.documentId())) {
                    continue;
                }
                truth.add(c.documentId() + "#" + c.content().hashCode() + "#" + c.heading());
                if (truth.size() == 10) {
                    break;
                }
            }
            for (String k : keys(index.searchKnn(q, all, 10))) {
                if (truth.contains(k)) {
                    hits++;
                }
            }
            total += truth.size();
        }
        return (double) hits / total;
    }

    static List<StoredChunk> sampleChunks(OnnxBgeEmbedder embedder) {
        List<DocumentRequest> docs = new ArrayList<>(SampleKnowledgeBase.documents());
        java.util.Map<String, List<Chunker.Chunk>> prepared = new java.util.HashMap<>();
        for (FaqEntry e : SampleKnowledgeBase.faq()) {
            DocumentRequest mirror = FaqService.mirror(e);
            docs.add(mirror);
            prepared.put(mirror.externalId(), FaqService.mirrorChunks(e));
        }
        DocumentParser parser = new DocumentParser();
        Chunker chunker = new Chunker(400, 80);
        List<StoredChunk> out = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        Instant now = Instant.now();
        for (DocumentRequest d : docs) {
            var parsed = parser.parse(d.content(), DocumentFormat.detect(d.contentType(), d.fileName()).orElseThrow());
            String title = d.title() != null ? d.title() : parsed.title() != null ? parsed.title() : d.fileName();
            for (Chunker.Chunk c : prepared.getOrDefault(d.externalId(), chunker.chunk(parsed))) {
                out.add(new StoredChunk(d.externalId(), title, null, d.category(), now, null, null, c.ordinal(),
                    c.heading(), c.content(), null));
                texts.add(c.textToEmbed());
            }
        }
        List<float[]> vectors = embedder.embedAll(texts);
        List<StoredChunk> embedded = new ArrayList<>();
        for (int i = 0; i < out.size(); i++) {
            StoredChunk c = out.get(i);
            embedded.add(new StoredChunk(c.documentId(), c.title(), null, c.category(), c.ingestedAt(), null, null,
                c.ordinal(), c.heading(), c.content(), vectors.get(i)));
        }
        return embedded;
    }

    /** The real chunks first, then variants (distinct text suffix, perturbed vector) up to n. */
    static List<StoredChunk> expand(List<StoredChunk> base, int n, Random random) {
        String[] products = {"无线耳机", "空气炸锅", "羽绒服", "扫地机器人", "机械键盘", "保温杯", "跑步鞋", "电动牙刷", "投影仪",
            "婴儿推车", "laptop", "smart watch"};
        List<StoredChunk> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            StoredChunk c = base.get(i % base.size());
            if (i < base.size()) {
                out.add(c);
                continue;
            }
            float[] v = c.embedding().clone();
            for (int d = 0; d < v.length; d++) {
                v[d] += (float) (random.nextGaussian() * 0.02);
            }
            Vectors.normalize(v);
            String suffix = "（适用商品：" + products[random.nextInt(products.length)] + "，编号 SKU-" + (100000 + i)
                + "，门店 " + (i % 97) + "）";
            out.add(new StoredChunk("var/" + i, c.title(), null, "variant", c.ingestedAt(), null, null, 0,
                c.heading(), c.content() + suffix, v));
        }
        return out;
    }

    private static int countTexts(FaqSnapshot s) {
        return s.entries().stream().mapToInt(e -> e.texts().size()).sum();
    }

    private static void warm(Supplier<?> r, int times) {
        for (int i = 0; i < times; i++) {
            r.get();
        }
    }

    private static final int PASSES = 3;

    /**
     * Every query timed in {@link #PASSES} rounds: [0] all calls, [1] each query's best round. On a shared
     * machine the best-of rounds strips most waiting for a CPU but keeps what a query costs by itself.
     */
    private static Histogram[] measure(int count, java.util.function.IntConsumer call) {
        long[] best = new long[count];
        java.util.Arrays.fill(best, Long.MAX_VALUE);
        Histogram every = hist();
        for (int p = 0; p < PASSES; p++) {
            for (int i = 0; i < count; i++) {
                long s = System.nanoTime();
                call.accept(i);
                long us = micros(s);
                every.recordValue(us);
                best[i] = Math.min(best[i], us);
            }
        }
        Histogram bestH = hist();
        for (long v : best) {
            bestH.recordValue(v);
        }
        return new Histogram[] {every, bestH};
    }

    private static void rows(StringBuilder report, String what, Histogram[] h) {
        row(report, what + ", every call (" + PASSES + " rounds)", h[0]);
        row(report, what + ", best of " + PASSES + " per query", h[1]);
    }

    private static Histogram hist() {
        return new Histogram(60_000_000L, 3);
    }

    private static long micros(long startNanos) {
        return Math.max(1, (System.nanoTime() - startNanos) / 1000);
    }

    private static void row(StringBuilder report, String what, Histogram h) {
        report.append(String.format("| %s | %d | %.3f | %.3f | %.3f |%n", what, h.getTotalCount(),
            h.getValueAtPercentile(50) / 1000.0, h.getValueAtPercentile(99) / 1000.0, h.getMaxValue() / 1000.0));
    }
}
