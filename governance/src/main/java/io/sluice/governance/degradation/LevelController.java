package io.sluice.governance.degradation;

import java.time.Duration;
import java.util.Optional;

/**
 * The automatic level with hysteresis: down (more degraded) at once when signals call for it, up
 * one level at a time and only after {@code upAfter} of continuous health. Pure: time is passed in,
 * so it is tested without sleeping. Not thread-safe (one evaluating thread owns it).
 */
public final class LevelController {

    /** A change of the automatic level and why. */
    public record Change(DegradationLevel from, DegradationLevel to, String reason) {
    }

    private final DegradationPolicy policy;
    private final long upAfterMillis;
    private DegradationLevel level = DegradationLevel.L0;
    private long healthySince = -1;

    public LevelController(DegradationPolicy policy, Duration upAfter) {
        this.policy = policy;
        this.upAfterMillis = upAfter.toMillis();
    }

    public DegradationLevel level() {
        return level;
    }

    public Optional<Change> evaluate(DegradationSignals signals, long nowMillis) {
        DegradationLevel target = policy.calledFor(signals);
        if (target.worseThan(level)) {
            Change change = new Change(level, target, "signals call for " + target + ": " + signals);
            level = target;
            healthySince = -1;
            return Optional.of(change);
        }
        if (level.worseThan(target)) {
            if (healthySince < 0) {
                healthySince = nowMillis;
                return Optional.empty();
            }
            if (nowMillis - healthySince >= upAfterMillis) {
                DegradationLevel better = level.better();
                Change change = new Change(level, better,
                    "healthy for " + Duration.ofMillis(nowMillis - healthySince).toSeconds() + "s: " + signals);
                level = better;
                healthySince = nowMillis;
                return Optional.of(change);
            }
            return Optional.empty();
        }
        healthySince = -1;
        return Optional.empty();
    }
}
