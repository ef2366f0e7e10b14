package io.sluice.knowledge.answer;

import io.sluice.knowledge.chain.RetrievalPlan;

/**
 * The score each retrieval tier's best hit needs to count as being about the question at all. Below
 * every bar nothing is relevant and every fidelity tier gives the honest no-answer instead of an answer
 * over unrelated sources. Calibrated from the operator's labelled FAQ queries and out-of-domain
 * questions (semantics kind {@code relevance}); the configured chain thresholds are the default.
 *
 * @param vector        cosine of the main (BGE) model
 * @param englishVector cosine of the English model (Latin-script queries)
 * @param bm25          raw BM25 score
 * @param faq           blended 0..1 score of the FAQ snapshot match
 */
public record RelevanceThresholds(double vector, double englishVector, double bm25, double faq) {

    public RelevanceThresholds {
        if (!(vector >= -1 && vector <= 1) || !(englishVector >= -1 && englishVector <= 1)) {
            throw new IllegalArgumentException("vector thresholds are cosines in [-1, 1]");
        }
        if (!(bm25 >= 0) || Double.isInfinite(bm25)) {
            throw new IllegalArgumentException("the BM25 threshold is a finite score >= 0");
        }
        if (!(faq >= 0 && faq <= 1)) {
            throw new IllegalArgumentException("the FAQ threshold is a blended score in [0, 1]");
        }
    }

    /** The thresholds a plan already carries (the configured defaults). */
    public static RelevanceThresholds of(RetrievalPlan plan) {
        return new RelevanceThresholds(plan.minVectorScore(), plan.minEnglishVectorScore(), plan.minBm25Score(),
            plan.minFaqScore());
    }

    /** The plan with these bars: the chain then hands over, and finally finds nothing, below them. */
    public RetrievalPlan apply(RetrievalPlan plan) {
        return plan.withThresholds(vector, bm25, faq).withEnglishVectorThreshold(englishVector);
    }
}
