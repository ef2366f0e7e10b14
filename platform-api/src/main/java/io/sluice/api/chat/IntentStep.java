package io.sluice.api.chat;

import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.intent.IntentEnhancer;
import io.sluice.api.intent.IntentMetrics;
import io.sluice.api.intent.IntentPath;
import io.sluice.api.intent.OnlineIntent;
import io.sluice.api.intent.RuleIntentClassifier;

/**
 * Intent: the {@link OnlineIntent} decision (the operator's trained model with the precise rules as
 * overrides; without a model the rules, then the enhancers). The intent fixes the priority class.
 * It is classified when a later step first needs it (admission, the answer, the record): an exact cache
 * hit answers with the intent its entry was stored with, so it never pays for the model or the kNN.
 */
public final class IntentStep implements ChatStep {

    private final OnlineIntent intent;

    public IntentStep(OnlineIntent intent) {
        this.intent = intent;
    }

    public IntentStep(RuleIntentClassifier rules, Iterable<IntentEnhancer> enhancers, double confidentAbove,
            IntentMetrics metrics) {
        this(new OnlineIntent(rules, enhancers, confidentAbove, metrics, null, () -> null, 1.0));
    }

    public IntentStep(RuleIntentClassifier rules, Iterable<IntentEnhancer> enhancers, double confidentAbove) {
        this(rules, enhancers, confidentAbove, new IntentMetrics(new SimpleMeterRegistry()));
    }

    public IntentStep(RuleIntentClassifier rules) {
        this(rules, List.of(), 1.0);
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        IntentPath path = ctx.stream() != null ? IntentPath.STREAM : IntentPath.CHAT;
        ctx.intentOnDemand(() -> intent.classify(ctx.message(), path));
        next.proceed(ctx);
    }
}
