package io.sluice.knowledge.eval;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

import io.sluice.knowledge.chain.Passage;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.chain.SearchFilter;
import io.sluice.knowledge.chain.TierQuery;
import io.sluice.knowledge.chain.Tiers;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.sample.SampleKnowledgeBase;
import io.sluice.knowledge.sample.SampleKnowledgeBase.EvalQuestion;
import io.sluice.knowledge.store.StoredChunk;
import io.sluice.knowledge.support.SampleIndex;
import io.sluice.knowledge.support.SharedEmbedder;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * hit@1 / hit@5 of each tier and of the whole chain on the labelled evaluation set
 * (knowledge/sample/eval-questions.json): the FAQ entry that answers the question must be the
 * first / among the first five results. Documents compete with FAQ mirrors in the vector and BM25
 * tiers, as in production. Prints the table (recorded in docs/knowledge.md).
 */
class RetrievalEvaluationTest {

    @TempDir
    static Path dir;

    private static final ExecutorService POOL = Executors.newFixedThreadPool(2);
    private static Embedder embedder;
    private static List<EvalQuestion> questions;
    private static Map<String, float[]> queryVectors;
    private static LuceneIndex cjk;
    private static LuceneIndex smartcn;
    private static FaqSnapshotService snapshots;
    private static FaqSnapshotService snapshotsBgeOnly;

    @BeforeAll
    static void buildIndexes() {
        embedder = SharedEmbedder.get();
        questions = SampleKnowledgeBase.evalQuestions();
        List<FaqEntry> faq = SampleKnowledgeBase.faq();
        List<StoredChunk> chunks = SampleIndex.chunks(embedder);
        // the chain below uses smartcn (the default) for BM25
        cjk = new LuceneIndex(dir.resolve("cjk"), LexicalAnalyzers.create("cjk"), embedder.dimension());
        smartcn = new LuceneIndex(dir.resolve("smartcn"), LexicalAnalyzers.create("smartcn"), embedder.dimension(),
            SharedEmbedder.english());
        cjk.replaceAll(chunks);
        smartcn.replaceAll(chunks);
        snapshots = new FaqSnapshotService(dir.resolve("snap"), embedder, SharedEmbedder.english(), () -> null, 0.9);
        snapshots.publish(snapshots.build(faq));
        snapshotsBgeOnly = new FaqSnapshotService(dir.resolve("snap-bge"), embedder, () -> null, 0.9);
        snapshotsBgeOnly.publish(snapshotsBgeOnly.build(faq));
        List<String> texts = questions.stream().map(EvalQuestion::question).toList();
        List<float[]> vectors = embedder.embedAll(texts);
        queryVectors = new LinkedHashMap<>();
        for (int i = 0; i < texts.size(); i++) {
            queryVectors.put(texts.get(i), vectors.get(i));
        }
    }

    @AfterAll
    static void close() throws IOException {
        cjk.close();
        smartcn.close();
        POOL.shutdownNow();
    }

    record Score(double hit1, double hit5, double zhHit5, double enHit5) {
    }

    static boolean english(String q) {
        return q.chars().noneMatch(Character::isIdeographic);
    }

    private static Score evaluate(Function<EvalQuestion, List<Passage>> tier) {
        int h1 = 0;
        int h5 = 0;
        int zh = 0;
        int zh5 = 0;
        int en5 = 0;
        for (EvalQuestion q : questions) {
            boolean en = english(q.question());
            zh += en ? 0 : 1;
            List<Passage> found = tier.apply(q);
            List<String> keys = found.stream().limit(5).map(p -> p.source().faqKey()).toList();
            if (!keys.isEmpty() && q.faqKey().equals(keys.get(0))) {
                h1++;
            }
            if (keys.contains(q.faqKey())) {
                h5++;
                if (en) {
                    en5++;
                } else {
                    zh5++;
                }
            }
        }
        int n = questions.size();
        return new Score((double) h1 / n, (double) h5 / n, (double) zh5 / Math.max(1, zh),
            (double) en5 / Math.max(1, n - zh));
    }

    static List<Passage> search(io.sluice.knowledge.chain.RetrievalTier tier, EvalQuestion q, SearchFilter f) {
        try {
            return tier.search(new TierQuery(q.question(), queryVectors.get(q.question()), f), 5);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void hitRatesPerTierAndForTheChain() throws IOException {
        SearchFilter all = new SearchFilter(null, Instant.now());
        Map<String, Score> table = new LinkedHashMap<>();
        table.put("vector (Lucene KNN, BGE only)", evaluate(q -> cjk.searchKnn(queryVectors.get(q.question()), all, 5)));
        var knnTier = Tiers.luceneKnn(smartcn);
        table.put("vector (Lucene KNN, Latin-script queries → English model)", evaluate(q -> search(knnTier, q, all)));
        table.put("BM25, CJK bigrams", evaluate(q -> cjk.searchBm25(q.question(), all, 5)));
        table.put("BM25, smartcn", evaluate(q -> smartcn.searchBm25(q.question(), all, 5)));
        var faqBgeTier = Tiers.faqSnapshot(snapshotsBgeOnly);
        table.put("FAQ snapshot (BGE only)", evaluate(q -> search(faqBgeTier, q, all)));
        var faqTier = Tiers.faqSnapshot(snapshots);
        table.put("FAQ snapshot (Latin-script queries → English model)", evaluate(q -> search(faqTier, q, all)));
        RetrievalChain chain = new RetrievalChain(List.of(knnTier, Tiers.bm25(smartcn),
            Tiers.faqSnapshot(snapshots)), embedder, POOL, 5, Duration.ofSeconds(30));
        RetrievalPlan plan = RetrievalPlan.defaults().withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(5),
            Duration.ofSeconds(5));
        Map<String, Integer> answeredBy = new LinkedHashMap<>();
        Score chainScore = evaluate(q -> {
            var r = chain.retrieve(q.question(), plan);
            answeredBy.merge(String.valueOf(r.answeredBy()), 1, Integer::sum);
            return r.passages();
        });
        table.put("chain (vector → BM25 → FAQ), default plan", chainScore);

        StringBuilder out = new StringBuilder();
        out.append(String.format("Evaluation: %d questions, %d FAQ entries, %d chunks%n", questions.size(),
            snapshots.current().size(), cjk.size()));
        long en = questions.stream().filter(q -> english(q.question())).count();
        out.append(String.format("| tier | hit@1 | hit@5 | hit@5 Chinese (%d) | hit@5 English (%d) |%n",
            questions.size() - en, en));
        out.append("|---|---|---|---|---|\n");
        table.forEach((name, s) -> out.append(String.format("| %s | %.3f | %.3f | %.3f | %.3f |%n", name, s.hit1(),
            s.hit5(), s.zhHit5(), s.enHit5())));
        out.append("chain answered by: ").append(answeredBy).append('\n');
        System.out.println(out);
        Path report = Path.of("target", "knowledge-eval.md");
        Files.createDirectories(report.getParent());
        Files.writeString(report, out.toString());

        // Regression floors a little under the measured numbers (docs/knowledge.md: chain hit@1 0.695, hit@5 0.919,
        // Chinese 0.896, English 0.942; FAQ snapshot with the English route hit@5 0.896, English 0.909).
        assertThat(chainScore.hit1()).as("chain hit@1").isGreaterThanOrEqualTo(0.67);
        assertThat(chainScore.hit5()).as("chain hit@5 (the issue's target)").isGreaterThanOrEqualTo(0.9);
        assertThat(chainScore.zhHit5()).as("chain hit@5 on Chinese questions").isGreaterThanOrEqualTo(0.87);
        assertThat(chainScore.enHit5()).as("chain hit@5 on English questions (English model)")
            .isGreaterThanOrEqualTo(0.92);
        assertThat(table.get("vector (Lucene KNN, Latin-script queries → English model)").enHit5())
            .as("the English model beats BGE on English questions")
            .isGreaterThan(table.get("vector (Lucene KNN, BGE only)").enHit5() + 0.15);
        Score faqEnglish = table.get("FAQ snapshot (Latin-script queries → English model)");
        assertThat(faqEnglish.hit5()).as("FAQ snapshot hit@5").isGreaterThanOrEqualTo(0.87);
        assertThat(faqEnglish.enHit5()).as("the FAQ snapshot's English route beats BGE on English questions")
            .isGreaterThan(table.get("FAQ snapshot (BGE only)").enHit5() + 0.1);
    }
}
