package io.sluice.api.intent;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

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
 * the vote wins only if it is at least as confident. Until the examples are embedded (once, at start,
 * in batches) and if that failed, it has no opinion: the rules stand.
 */
public final class KnnIntentClassifier implements IntentEnhancer {

    private static final Logger log = LoggerFactory.getLogger(KnnIntentClassifier.class);

    /** The examples with their unit vectors, row by row. */
    record Index(String[] texts, ExampleLabel[] labels, float[][] vectors) {
    }

    private final Embedder embedder;
    private final KnnVote vote;
    private final CompletableFuture<Index> index;

    private KnnIntentClassifier(Embedder embedder, KnnVote vote, CompletableFuture<Index> index) {
        this.embedder = embedder;
        this.vote = vote;
        this.index = index;
    }

    /** Embeds the examples now, on this thread. */
    public static KnnIntentClassifier build(Embedder embedder, List<IntentExamples.Example> examples, KnnVote vote) {
        return new KnnIntentClassifier(embedder, vote, CompletableFuture.completedFuture(index(embedder, examples)));
    }

    /** Embeds the examples on {@code executor}; until done the classifier abstains (the start is not held up). */
    public static KnnIntentClassifier buildInBackground(Embedder embedder, List<IntentExamples.Example> examples,
            KnnVote vote, Executor executor) {
        CompletableFuture<Index> index = CompletableFuture.supplyAsync(() -> {
            long started = System.nanoTime();
            Index built = index(embedder, examples);
            log.info("intent kNN: {} examples embedded with {} in {} ms", built.texts().length, embedder.modelId(),
                (System.nanoTime() - started) / 1_000_000);
            return built;
        }, executor);
        index.exceptionally(error -> {
            log.error("intent kNN: embedding the examples failed, the classifier stays silent (rules decide)", error);
            return null;
        });
        return new KnnIntentClassifier(embedder, vote, index);
    }

    private static Index index(Embedder embedder, List<IntentExamples.Example> examples) {
        List<String> texts = examples.stream().map(IntentExamples.Example::text).toList();
        List<float[]> vectors = embedder.embedAll(texts);   // the embedder batches
        if (vectors.size() != texts.size()) {
            throw new IllegalStateException("the embedder returned " + vectors.size() + " vectors for " + texts.size() + " texts");
        }
        return new Index(texts.toArray(String[]::new),
            examples.stream().map(IntentExamples.Example::label).toArray(ExampleLabel[]::new),
            vectors.toArray(float[][]::new));
    }

    /** Whether the examples are embedded (before that, and after a failure, it has no opinion). */
    public boolean ready() {
        return index.isDone() && !index.isCompletedExceptionally() && index.getNow(null) != null;
    }

    /** Number of examples in the index (0 until ready). */
    public int size() {
        return ready() ? index.getNow(null).texts().length : 0;
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

    /** The vote alone, without the rules (empty: not ready, or nothing similar enough). */
    public Optional<KnnVote.Decision> decide(String message) {
        Index built = ready() ? index.getNow(null) : null;
        if (built == null || message == null || message.isBlank()) {
            return Optional.empty();
        }
        float[] query = embedder.embed(message);
        return vote.decide(nearest(built, query, vote.k()));
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
