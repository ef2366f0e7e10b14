package io.sluice.governance.degradation;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;

import io.sluice.governance.tier.FidelityTier;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Degradation levels ({@code sluice.degradation.*}).
 *
 * @param keyPrefix    Redis keys of the cluster-wide state (pin, per-instance proposals)
 * @param auto         whether the level follows measured signals (false = L0 unless pinned)
 * @param tick         how often signals are evaluated and the cluster state re-read
 * @param upAfter      continuous health needed before stepping up one level (down is immediate)
 * @param proposalTtl  an instance's proposal older than this is ignored (crashed instance)
 * @param levels       the knobs of each level (missing levels, and lanes a level's {@code generation} does not
 *                     name, use the built-in defaults)
 * @param enter        the signal thresholds that put the cluster at L1, L2, L3 (any one suffices)
 */
@ConfigurationProperties("sluice.degradation")
public record DegradationProperties(
        @DefaultValue("sluice:degradation:") String keyPrefix,
        @DefaultValue("true") boolean auto,
        @DefaultValue("1s") Duration tick,
        @DefaultValue("3m") Duration upAfter,
        @DefaultValue("30s") Duration proposalTtl,
        Map<DegradationLevel, LevelKnobs> levels,
        Map<DegradationLevel, Trigger> enter) {

    /** Signals at or above any of these values mean "at least this level". */
    public record Trigger(double p95LatencyMs, double errorRatio, double permitOccupancy, int queueLength) {

        public boolean firedBy(DegradationSignals s) {
            return s.p95LatencyMs() >= p95LatencyMs || s.errorRatio() >= errorRatio
                || s.permitOccupancy() >= permitOccupancy || s.queueLength() >= queueLength;
        }
    }

    public DegradationProperties {
        Map<DegradationLevel, LevelKnobs> knobs = new EnumMap<>(DEFAULT_KNOBS);
        if (levels != null) {
            // a configured level keeps the built-in temperature / top_p of every lane it does not name
            levels.forEach((level, k) -> {
                Map<io.sluice.governance.gateway.Lane, Generation> lanes = new EnumMap<>(io.sluice.governance.gateway.Lane.class);
                lanes.putAll(DEFAULT_KNOBS.get(level).generation());
                lanes.putAll(k.generation());
                knobs.put(level, k.withGeneration(lanes));
            });
        }
        levels = Map.copyOf(knobs);
        Map<DegradationLevel, Trigger> triggers = new EnumMap<>(DEFAULT_TRIGGERS);
        if (enter != null) {
            triggers.putAll(enter);
        }
        triggers.remove(DegradationLevel.L0);
        enter = Map.copyOf(triggers);
    }

    public static DegradationProperties defaults() {
        return new DegradationProperties("sluice:degradation:", true, Duration.ofSeconds(1), Duration.ofMinutes(3),
            Duration.ofSeconds(30), null, null);
    }

    static final Map<DegradationLevel, LevelKnobs> DEFAULT_KNOBS = Map.of(
        DegradationLevel.L0, new LevelKnobs(FidelityTier.F4, 0.92, 5, 1024, "primary", true, Duration.ZERO, false,
            generation(0.3, 0.9, 0.2)),
        DegradationLevel.L1, new LevelKnobs(FidelityTier.F3, 0.90, 2, 512, "primary", true, Duration.ZERO, false,
            generation(0.2, 0.9, 0.1)),
        DegradationLevel.L2, new LevelKnobs(FidelityTier.F2, 0.87, 1, 256, "light", false, Duration.ofHours(6), false,
            generation(0.1, 0.8, 0.0)),
        DegradationLevel.L3, new LevelKnobs(FidelityTier.F1, 0.85, 1, 128, "light", false, Duration.ofHours(24), true,
            generation(0.1, 0.8, 0.0)));

    /** Interactive answers at {@code temperature}/{@code topP}; intent deterministic; batch a little below interactive. */
    private static Map<io.sluice.governance.gateway.Lane, Generation> generation(double temperature, double topP,
            double batchTemperature) {
        return Map.of(io.sluice.governance.gateway.Lane.INTERACTIVE, new Generation(temperature, topP),
            io.sluice.governance.gateway.Lane.INTENT, new Generation(0.0, 1.0),
            io.sluice.governance.gateway.Lane.BATCH, new Generation(batchTemperature, topP));
    }

    static final Map<DegradationLevel, Trigger> DEFAULT_TRIGGERS = Map.of(
        DegradationLevel.L1, new Trigger(4_000, 0.05, 0.80, 20),
        DegradationLevel.L2, new Trigger(8_000, 0.20, 0.95, 50),
        DegradationLevel.L3, new Trigger(15_000, 0.50, 2.0, 100));
}
