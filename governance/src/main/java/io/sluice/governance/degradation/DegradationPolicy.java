package io.sluice.governance.degradation;

import java.util.EnumMap;
import java.util.Map;

/**
 * The ONE place that maps a level to its knobs, and signals to the level they call for.
 *
 * <p>The knobs come from configuration; an operator may override the semantic-cache threshold of each
 * level at runtime ({@link #overrideCacheThresholds}), which replaces only that knob.
 */
public final class DegradationPolicy {

    /** Lowest and highest semantic-cache threshold an operator may set (below 0.5 a "hit" is noise). */
    public static final double MIN_CACHE_THRESHOLD = 0.5;
    public static final double MAX_CACHE_THRESHOLD = 1.0;

    private final Map<DegradationLevel, LevelKnobs> configured;
    private final Map<DegradationLevel, DegradationProperties.Trigger> enter;
    private volatile Map<DegradationLevel, LevelKnobs> knobs;
    private volatile Map<DegradationLevel, Double> cacheThresholdOverrides = Map.of();

    public DegradationPolicy(DegradationProperties properties) {
        this.configured = properties.levels();
        this.knobs = configured;
        this.enter = properties.enter();
    }

    public LevelKnobs knobs(DegradationLevel level) {
        return knobs.get(level);
    }

    /** The knobs as configured, without any runtime override. */
    public LevelKnobs configuredKnobs(DegradationLevel level) {
        return configured.get(level);
    }

    /** The operator's cache-threshold overrides in force (empty = the configured thresholds). */
    public Map<DegradationLevel, Double> cacheThresholdOverrides() {
        return cacheThresholdOverrides;
    }

    /**
     * Replaces the semantic-cache threshold of every level (an empty map goes back to the configured ones).
     *
     * @throws IllegalArgumentException when {@link #validateCacheThresholds} refuses them; nothing changes then
     */
    void overrideCacheThresholds(Map<DegradationLevel, Double> thresholds) {
        if (!thresholds.isEmpty()) {
            validateCacheThresholds(thresholds);
        }
        Map<DegradationLevel, LevelKnobs> next = new EnumMap<>(DegradationLevel.class);
        configured.forEach((level, k) -> next.put(level,
            thresholds.containsKey(level) ? k.withCacheThreshold(thresholds.get(level)) : k));
        this.knobs = Map.copyOf(next);
        this.cacheThresholdOverrides = Map.copyOf(thresholds);
    }

    /**
     * A threshold for every level, each within [0.5, 1.0], never rising from L0 to L3: a more degraded level
     * accepts looser cache hits (more answers without the LLM), never stricter ones.
     *
     * @throws IllegalArgumentException naming the offending level
     */
    public static void validateCacheThresholds(Map<DegradationLevel, Double> thresholds) {
        Double previous = null;
        DegradationLevel previousLevel = null;
        for (DegradationLevel level : DegradationLevel.values()) {
            Double t = thresholds.get(level);
            if (t == null) {
                throw new IllegalArgumentException("a cache threshold is needed for " + level);
            }
            if (t.isNaN() || t < MIN_CACHE_THRESHOLD || t > MAX_CACHE_THRESHOLD) {
                throw new IllegalArgumentException("the cache threshold of " + level + " must be between "
                    + MIN_CACHE_THRESHOLD + " and " + MAX_CACHE_THRESHOLD + ", was " + t);
            }
            if (previous != null && t > previous) {
                throw new IllegalArgumentException("the cache threshold of " + level + " (" + t + ") must not be above "
                    + previousLevel + "'s (" + previous + "): a more degraded level never asks for closer matches");
            }
            previous = t;
            previousLevel = level;
        }
    }

    /** The most degraded level whose trigger these signals fire (L0 when none does). */
    public DegradationLevel calledFor(DegradationSignals signals) {
        DegradationLevel[] levels = DegradationLevel.values();
        for (int i = levels.length - 1; i > 0; i--) {
            DegradationProperties.Trigger trigger = enter.get(levels[i]);
            if (trigger != null && trigger.firedBy(signals)) {
                return levels[i];
            }
        }
        return DegradationLevel.L0;
    }
}
