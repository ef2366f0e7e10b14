package io.sluice.api.chat;

import io.sluice.governance.degradation.DegradationControl;
import io.sluice.governance.degradation.DegradationLevel;

/** Degradation: the cluster's level in force (a local read) caps the tier and sets the knobs. */
public final class LevelStep implements ChatStep {

    private final DegradationControl degradation;

    public LevelStep(DegradationControl degradation) {
        this.degradation = degradation;
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        DegradationLevel level = degradation.level();
        ctx.level(level, degradation.knobs(level));
        next.proceed(ctx);
    }
}
