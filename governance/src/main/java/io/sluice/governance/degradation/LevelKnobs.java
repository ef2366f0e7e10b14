package io.sluice.governance.degradation;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

import io.sluice.governance.gateway.Lane;
import io.sluice.governance.gateway.LlmParameters;
import io.sluice.governance.tier.FidelityTier;

import org.springframework.boot.context.properties.bind.ConstructorBinding;

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
 * @param cacheGrace     how long past its logical expiry a semantic-cache entry is still served at this
 *                       level (0 = never): under load an answer a little older beats a call the level cannot
 *                       afford
 * @param cacheShortForm whether cache hits of long answers are served in their stored short form
 * @param generation     temperature / top_p per lane at this level (a lane not named: the provider's default)
 */
public record LevelKnobs(FidelityTier highestTier, double cacheThreshold, int topK, int maxTokens,
        String modelRoute, boolean laneBAdmitted, Duration cacheGrace, boolean cacheShortForm,
        Map<Lane, Generation> generation) {

    @ConstructorBinding
    public LevelKnobs {
        cacheGrace = cacheGrace == null ? Duration.ZERO : cacheGrace;
        if (cacheGrace.isNegative()) {
            throw new IllegalArgumentException("cacheGrace must not be negative");
        }
        Objects.requireNonNull(highestTier, "highestTier");
        Objects.requireNonNull(modelRoute, "modelRoute");
        if (cacheThreshold <= 0 || cacheThreshold > 1) {
            throw new IllegalArgumentException("cacheThreshold must be in (0, 1]");
        }
        if (topK < 1 || maxTokens < 1) {
            throw new IllegalArgumentException("topK and maxTokens must be positive");
        }
        generation = generation == null || generation.isEmpty() ? Map.of() : Map.copyOf(new EnumMap<>(generation));
    }

    /** Knobs without cache grace, short forms or sampling settings (as before these knobs existed). */
    public LevelKnobs(FidelityTier highestTier, double cacheThreshold, int topK, int maxTokens, String modelRoute,
            boolean laneBAdmitted) {
        this(highestTier, cacheThreshold, topK, maxTokens, modelRoute, laneBAdmitted, Duration.ZERO, false, Map.of());
    }

    /** Knobs without sampling settings (the provider's defaults on every lane). */
    public LevelKnobs(FidelityTier highestTier, double cacheThreshold, int topK, int maxTokens, String modelRoute,
            boolean laneBAdmitted, Duration cacheGrace, boolean cacheShortForm) {
        this(highestTier, cacheThreshold, topK, maxTokens, modelRoute, laneBAdmitted, cacheGrace, cacheShortForm, Map.of());
    }

    /** Knobs with sampling settings, without cache grace or short forms. */
    public LevelKnobs(FidelityTier highestTier, double cacheThreshold, int topK, int maxTokens, String modelRoute,
            boolean laneBAdmitted, Map<Lane, Generation> generation) {
        this(highestTier, cacheThreshold, topK, maxTokens, modelRoute, laneBAdmitted, Duration.ZERO, false, generation);
    }

    /** The sampling knobs of one lane at this level. */
    public Generation generation(Lane lane) {
        return generation.getOrDefault(lane, Generation.PROVIDER_DEFAULT);
    }

    /** {@code parameters} with this level's temperature / top_p for the lane (values already set are kept). */
    public LlmParameters parameters(Lane lane, LlmParameters parameters) {
        return generation(lane).applyTo(parameters == null ? LlmParameters.NONE : parameters);
    }

    /** These knobs with other sampling knobs. */
    public LevelKnobs withGeneration(Map<Lane, Generation> lanes) {
        return new LevelKnobs(highestTier, cacheThreshold, topK, maxTokens, modelRoute, laneBAdmitted, cacheGrace,
            cacheShortForm, lanes);
    }

    /** These knobs with another semantic-cache threshold (an operator's override, see {@link DegradationPolicy}). */
    public LevelKnobs withCacheThreshold(double threshold) {
        return new LevelKnobs(highestTier, threshold, topK, maxTokens, modelRoute, laneBAdmitted, cacheGrace,
            cacheShortForm, generation);
    }

    /** These knobs with another model route (a route change moving gradually). */
    public LevelKnobs withModelRoute(String route) {
        return new LevelKnobs(highestTier, cacheThreshold, topK, maxTokens, route, laneBAdmitted, cacheGrace,
            cacheShortForm, generation);
    }

    /** The better of the two tiers is capped at this level's highest tier. */
    public FidelityTier cap(FidelityTier wanted) {
        // FidelityTier is declared best first: a larger ordinal is a lower tier
        return wanted.ordinal() >= highestTier.ordinal() ? wanted : highestTier;
    }
}
