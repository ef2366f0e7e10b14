package io.sluice.governance.degradation;

import java.util.Map;

/** The ONE place that maps a level to its knobs, and signals to the level they call for. */
public final class DegradationPolicy {

    private final Map<DegradationLevel, LevelKnobs> knobs;
    private final Map<DegradationLevel, DegradationProperties.Trigger> enter;

    public DegradationPolicy(DegradationProperties properties) {
        this.knobs = properties.levels();
        this.enter = properties.enter();
    }

    public LevelKnobs knobs(DegradationLevel level) {
        return knobs.get(level);
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
