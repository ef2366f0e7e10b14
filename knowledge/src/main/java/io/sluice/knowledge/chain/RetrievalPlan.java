package io.sluice.knowledge.chain;

import java.time.Duration;

/**
 * Knobs for one retrieval, set by the caller from the current degradation level (this module
 * does not know about levels).
 *
 * @param topK            passages to return (e.g. 5 → 2 → 1 as the level rises)
 * @param minVectorScore  cosine similarity a vector hit needs
 * @param minBm25Score    raw BM25 score a lexical hit needs
 * @param minFaqScore     blended 0..1 score a FAQ snapshot match needs
 * @param category        restrict to one category, or null
 */
public record RetrievalPlan(int topK, double minVectorScore, double minBm25Score, double minFaqScore,
        Duration vectorTimeout, Duration bm25Timeout, Duration faqTimeout, String category,
        double minEnglishVectorScore) {

    /**
     * Cosine a hit of the default English model needs ({@link io.sluice.knowledge.embedding.EnglishModels#DEFAULT};
     * its scale is not BGE-small-zh's, so it has its own bar: 0.65 for BGE-small-en, 0.3 for MiniLM —
     * {@link io.sluice.knowledge.embedding.EnglishModels#defaultMinScore}).
     */
    public static final double DEFAULT_MIN_ENGLISH_VECTOR_SCORE =
        io.sluice.knowledge.embedding.EnglishModels.defaultMinScore(io.sluice.knowledge.embedding.EnglishModels.DEFAULT);

    /** Without an English threshold: {@link #DEFAULT_MIN_ENGLISH_VECTOR_SCORE}. */
    public RetrievalPlan(int topK, double minVectorScore, double minBm25Score, double minFaqScore,
            Duration vectorTimeout, Duration bm25Timeout, Duration faqTimeout, String category) {
        this(topK, minVectorScore, minBm25Score, minFaqScore, vectorTimeout, bm25Timeout, faqTimeout, category,
            DEFAULT_MIN_ENGLISH_VECTOR_SCORE);
    }

    public RetrievalPlan {
        if (topK < 1) {
            throw new IllegalArgumentException("topK must be >= 1");
        }
    }

    /** Level-0 defaults: top 5, 200 ms vector, 100 ms BM25, 50 ms FAQ. */
    public static RetrievalPlan defaults() {
        return new RetrievalPlan(5, 0.5, 3.0, 0.5, Duration.ofMillis(200), Duration.ofMillis(100),
            Duration.ofMillis(50), null);
    }

    public RetrievalPlan withTopK(int k) {
        return new RetrievalPlan(k, minVectorScore, minBm25Score, minFaqScore, vectorTimeout, bm25Timeout, faqTimeout,
            category, minEnglishVectorScore);
    }

    public RetrievalPlan withCategory(String c) {
        return new RetrievalPlan(topK, minVectorScore, minBm25Score, minFaqScore, vectorTimeout, bm25Timeout,
            faqTimeout, c, minEnglishVectorScore);
    }

    public RetrievalPlan withThresholds(double vector, double bm25, double faq) {
        return new RetrievalPlan(topK, vector, bm25, faq, vectorTimeout, bm25Timeout, faqTimeout, category,
            minEnglishVectorScore);
    }

    /** The bar for hits of the English model ({@link Tiers#ENGLISH_VECTOR_PASSAGE} passages). */
    public RetrievalPlan withEnglishVectorThreshold(double english) {
        return new RetrievalPlan(topK, minVectorScore, minBm25Score, minFaqScore, vectorTimeout, bm25Timeout,
            faqTimeout, category, english);
    }

    public RetrievalPlan withTimeouts(Duration vector, Duration bm25, Duration faq) {
        return new RetrievalPlan(topK, minVectorScore, minBm25Score, minFaqScore, vector, bm25, faq, category,
            minEnglishVectorScore);
    }

    /** The bar for one passage: English-model hits have their own. */
    public double minScore(TierKind kind, Passage passage) {
        return kind == TierKind.VECTOR && Tiers.ENGLISH_VECTOR_PASSAGE.equals(passage.tier()) ? minEnglishVectorScore
            : minScore(kind);
    }

    public double minScore(TierKind kind) {
        return switch (kind) {
            case VECTOR -> minVectorScore;
            case LEXICAL -> minBm25Score;
            case FAQ -> minFaqScore;
        };
    }

    public Duration timeout(TierKind kind) {
        return switch (kind) {
            case VECTOR -> vectorTimeout;
            case LEXICAL -> bm25Timeout;
            case FAQ -> faqTimeout;
        };
    }
}
