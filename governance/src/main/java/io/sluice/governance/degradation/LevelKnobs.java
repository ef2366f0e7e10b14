package io.sluice.governance.degradation;

import java.util.Objects;

import io.sluice.governance.tier.FidelityTier;

/**
 * Everything a degradation level decides, in one value (see {@link DegradationPolicy}).
 *
 * @param highestTier    the best fidelity tier an answer may have
 * @param cacheThreshold semantic-cache similarity a hit needs (lower = more hits, more risk)
 * @param topK           retrieval hits put into the prompt
 * @param maxTokens      completion cap for interactive answers
 * @param modelRoute     gateway model route for interactive answers
 * @param laneBAdmitted  whether priority-B requests may wait for the LLM; false = answered at a
 *                       lower tier (or deferred) without waiting
 */
public record LevelKnobs(FidelityTier highestTier, double cacheThreshold, int topK, int maxTokens,
        String modelRoute, boolean laneBAdmitted) {

    public LevelKnobs {
        Objects.requireNonNull(highestTier, "highestTier");
        Objects.requireNonNull(modelRoute, "modelRoute");
        if (cacheThreshold <= 0 || cacheThreshold > 1) {
            throw new IllegalArgumentException("cacheThreshold must be in (0, 1]");
        }
        if (topK < 1 || maxTokens < 1) {
            throw new IllegalArgumentException("topK and maxTokens must be positive");
        }
    }

    /** These knobs with another semantic-cache threshold (an operator's override, see {@link DegradationPolicy}). */
    public LevelKnobs withCacheThreshold(double threshold) {
        return new LevelKnobs(highestTier, threshold, topK, maxTokens, modelRoute, laneBAdmitted);
    }

    /** The better of the two tiers is capped at this level's highest tier. */
    public FidelityTier cap(FidelityTier wanted) {
        // FidelityTier is declared best first: a larger ordinal is a lower tier
        return wanted.ordinal() >= highestTier.ordinal() ? wanted : highestTier;
    }
}
