package io.sluice.knowledge.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.sluice.knowledge.answer.FaqAnswerFinder;
import io.sluice.knowledge.chain.RetrievalChain;
import io.sluice.knowledge.chain.RetrievalPlan;
import io.sluice.knowledge.chain.Source;
import io.sluice.knowledge.chain.Tiers;
import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.faq.FaqEntry;
import io.sluice.knowledge.faq.FaqService;
import io.sluice.knowledge.faq.FaqSnapshotService;
import io.sluice.knowledge.lexical.LexicalAnalyzers;
import io.sluice.knowledge.lexical.LuceneIndex;
import io.sluice.knowledge.store.StoredChunk;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * A knowledge base of one FAQ data set with the real parts the chat uses: the FAQ mirrors in Lucene
 * (BGE and English-model KNN, BM25), the published FAQ snapshot, the chain over them and the F1 finder.
 */
public final class FaqTestBed implements AutoCloseable {

    public static final ObjectMapper JSON = new ObjectMapper();
    public static final RetrievalPlan PLAN = RetrievalPlan.defaults().withTimeouts(Duration.ofSeconds(20),
        Duration.ofSeconds(20), Duration.ofSeconds(20)).withEnglishVectorThreshold(
            io.sluice.knowledge.embedding.EnglishModels.defaultMinScore(SharedEmbedder.ENGLISH_MODEL));

    public final Embedder embedder = SharedEmbedder.get();
    public final ExecutorService pool = Executors.newFixedThreadPool(2);
    public final LuceneIndex index;
    public final FaqSnapshotService snapshots;
    public final RetrievalChain chain;
    public final FaqAnswerFinder finder;

    public FaqTestBed(Path dir, List<FaqEntry> entries) {
        index = new LuceneIndex(dir.resolve("idx"), LexicalAnalyzers.create("smartcn"), embedder.dimension(),
            SharedEmbedder.english());
        for (FaqEntry e : entries) {
            mirror(e);
        }
        snapshots = new FaqSnapshotService(dir.resolve("snap"), embedder, SharedEmbedder.english(), () -> null, 0.8);
        snapshots.publish(snapshots.build(entries));
        chain = new RetrievalChain(List.of(Tiers.luceneKnn(index), Tiers.bm25(index), Tiers.faqSnapshot(snapshots)),
            embedder, pool, 5, Duration.ofSeconds(30));
        // evaluations measure the warm ranking: a question waits for its answer vectors however loaded the machine
        finder = new FaqAnswerFinder(chain, snapshots, embedder, SharedEmbedder.english())
            .answerVectorWait(Duration.ofMinutes(5));
    }

    private void mirror(FaqEntry e) {
        var chunks = FaqService.mirrorChunks(e);
        List<float[]> vectors = embedder.embedAll(chunks.stream().map(c -> c.textToEmbed()).toList());
        List<StoredChunk> stored = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            var c = chunks.get(i);
            stored.add(new StoredChunk(Source.FAQ_DOCUMENT_PREFIX + e.key(), e.question(), null, e.category(),
                Instant.now(), null, null, c.ordinal(), c.heading(), c.content(), vectors.get(i)));
        }
        index.upsertDocument(Source.FAQ_DOCUMENT_PREFIX + e.key(), stored);
    }

    public static List<FaqEntry> entries(String resource) {
        List<FaqEntry> out = new ArrayList<>();
        long id = 1;
        for (JsonNode n : lines(resource)) {
            List<String> phrasings = new ArrayList<>();
            n.get("phrasings").forEach(p -> phrasings.add(p.asString()));
            out.add(new FaqEntry(id++, n.get("key").asString(), n.get("question").asString(), phrasings,
                n.get("answer").asString(), n.get("category").asString(), List.of(), null, null, null));
        }
        return out;
    }

    public static List<Map<String, String>> items(String... resources) {
        List<Map<String, String>> out = new ArrayList<>();
        for (String r : resources) {
            for (JsonNode n : lines(r)) {
                Map<String, String> m = new LinkedHashMap<>();
                m.put("query", n.get("query").asString());
                m.put("key", n.get("key").asString());
                out.add(m);
            }
        }
        return out;
    }

    /** The team's data sets (knowledge/src/test/resources/datasets), found from any module's directory. */
    public static Path datasets() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            Path candidate = p.resolve("knowledge/src/test/resources/datasets");
            if (java.nio.file.Files.isDirectory(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("knowledge/src/test/resources/datasets not found");
    }

    static List<JsonNode> lines(String resource) {
        try {
            List<JsonNode> out = new ArrayList<>();
            for (String line : java.nio.file.Files.readAllLines(datasets().resolve(resource), StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    out.add(JSON.readTree(line));
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() throws IOException {
        index.close();
        pool.shutdownNow();
    }
}
