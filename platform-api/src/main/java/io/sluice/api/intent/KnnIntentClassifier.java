package io.sluice.api.intent;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.sluice.knowledge.embedding.Embedder;
import io.sluice.knowledge.embedding.Vectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Embedding nearest-neighbour intent classifier over labelled examples: the message is embedded
 * (the knowledge module's {@link Embedder}, the same model and query cache as the semantic cache),
 * compared with every example, and the {@link KnnVote} of the nearest decides.
 *
 * <p>Against the rules' result: when the vote's label covers the rules' intent they agree, the finer
 * intent of the rules stands and the confidences combine ({@code 1 − (1−a)(1−b)}); when they disagree
 * the vote wins only if it is at least as confident. The examples are embedded once, at start, in
 * batches (or read from the vectors a previous start kept, see {@link ExampleVectorCache}).
 */
public final class KnnIntentClassifier implements IntentEnhancer {

    private static final Logger log = LoggerFactory.getLogger(KnnIntentClassifier.class);

    /** The examples with their unit vectors, row by row. */
    record Index(String[] texts, ExampleLabel[] labels, float[][] vectors) {
    }

    private final Embedder embedder;
    private final KnnVote vote;
    private final Index index;

    private KnnIntentClassifier(Embedder embedder, KnnVote vote, Index index) {
        this.embedder = embedder;
        this.vote = vote;
        this.index = index;
    }

    /**
     * Embeds the examples now (the embedder batches them); no examples = a classifier that always abstains. Done once at start, synchronously: a
     * classifier that joined later would send the first minutes of traffic to the LLM instead.
     */
    public static KnnIntentClassifier build(Embedder embedder, List<IntentExamples.Example> examples, KnnVote vote) {
        return build(embedder, examples, vote, null);
    }

    /**
     * As {@link #build(Embedder, List, KnnVote)}, keeping the examples' vectors in {@code cacheDir} between
     * starts (null = embed every time): a start with the same model and examples reads them instead.
     */
    public static KnnIntentClassifier build(Embedder embedder, List<IntentExamples.Example> examples, KnnVote vote,
            java.nio.file.Path cacheDir) {
        long started = System.nanoTime();
        List<String> texts = examples.stream().map(IntentExamples.Example::text).toList();
        ExampleVectorCache cache = cacheDir == null || texts.isEmpty() ? null
            : new ExampleVectorCache(cacheDir, embedder.modelId(), texts);
        List<float[]> cached = cache == null ? null : cache.load().orElse(null);
        List<float[]> vectors = cached != null ? cached : texts.isEmpty() ? List.of() : embedder.embedAll(texts);
        if (cache != null && cached == null) {
            cache.store(vectors);
        }
        if (vectors.size() != texts.size()) {
            throw new IllegalStateException("the embedder returned " + vectors.size() + " vectors for " + texts.size() + " texts");
        }
        Index index = new Index(texts.toArray(String[]::new),
            examples.stream().map(IntentExamples.Example::label).toArray(ExampleLabel[]::new),
            vectors.toArray(float[][]::new));
        log.info("intent kNN: {} examples {} with {} in {} ms", texts.size(),
            cached != null ? "read from " + cache.file().getFileName() : "embedded", embedder.modelId(),
            (System.nanoTime() - started) / 1_000_000);
        return new KnnIntentClassifier(embedder, vote, index);
    }

    /** Number of labelled examples in the index. */
    public int size() {
        return index.texts().length;
    }

    @Override
    public String name() {
        return "knn";
    }

    @Override
    public Optional<IntentResult> refine(String message, IntentResult current) {
        Optional<KnnVote.Decision> decided = decide(message);
        if (decided.isEmpty()) {
            return Optional.empty();
        }
        KnnVote.Decision decision = decided.get();
        ExampleLabel label = decision.label();
        List<String> evidence = decision.voters().stream().filter(v -> v.label() == label).limit(1)
            .map(v -> "≈ " + v.text() + " (" + Math.round(v.similarity() * 100) / 100.0 + ")").toList();
        if (current != null && label.covers(current.intent())) {
            double combined = 1 - (1 - current.confidence()) * (1 - decision.confidence());
            return Optional.of(new IntentResult(current.intent(), combined, name(), evidence));
        }
        if (current != null && decision.confidence() < current.confidence()) {
            return Optional.empty();
        }
        return Optional.of(new IntentResult(label.standsFor(), decision.confidence(), name(), evidence));
    }

    /** The vote alone, without the rules (empty: nothing similar enough). */
    public Optional<KnnVote.Decision> decide(String message) {
        if (message == null || message.isBlank() || size() == 0) {
            return Optional.empty();
        }
        float[] query;
        try {
            query = embedder.embed(message);
        } catch (RuntimeException e) {
            // a remote embedding service may fail mid-flight: the rules stand, the request goes on
            log.warn("intent kNN: embedding the message failed ({}), no opinion", e.toString());
            return Optional.empty();
        }
        return vote.decide(nearest(index, query, vote.k()));
    }

    /** The {@code k} most similar examples (a linear scan: a few hundred dot products). */
    static List<KnnVote.Neighbour> nearest(Index index, float[] query, int k) {
        int n = index.vectors().length;
        int take = Math.min(k, n);
        int[] best = new int[take];
        float[] bestSimilarity = new float[take];
        int filled = 0;
        for (int i = 0; i < n; i++) {
            float similarity = Vectors.dot(index.vectors()[i], query);
            if (filled < take || similarity > bestSimilarity[filled - 1]) {
                int at = filled < take ? filled++ : take - 1;
                while (at > 0 && bestSimilarity[at - 1] < similarity) {   // insertion, kept sorted descending
                    best[at] = best[at - 1];
                    bestSimilarity[at] = bestSimilarity[at - 1];
                    at--;
                }
                best[at] = i;
                bestSimilarity[at] = similarity;
            }
        }
        List<KnnVote.Neighbour> out = new ArrayList<>(filled);
        for (int j = 0; j < filled; j++) {
            out.add(new KnnVote.Neighbour(index.labels()[best[j]], bestSimilarity[j], index.texts()[best[j]]));
        }
        return out;
    }
}
