package io.sluice.api.chat;

import java.util.List;

import io.sluice.api.intent.IntentEnhancer;
import io.sluice.api.intent.IntentResult;
import io.sluice.api.intent.RuleIntentClassifier;

/**
 * Intent: the rules always; then each {@link IntentEnhancer} (embedding kNN, LLM — next) while the
 * result is less confident than {@code confidentAbove}. The intent fixes the priority class.
 */
public final class IntentStep implements ChatStep {

    private final RuleIntentClassifier rules;
    private final Iterable<IntentEnhancer> enhancers;
    private final double confidentAbove;

    public IntentStep(RuleIntentClassifier rules, Iterable<IntentEnhancer> enhancers, double confidentAbove) {
        this.rules = rules;
        this.enhancers = enhancers;
        this.confidentAbove = confidentAbove;
    }

    public IntentStep(RuleIntentClassifier rules) {
        this(rules, List.of(), 1.0);
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        IntentResult result = rules.classify(ctx.message());
        for (IntentEnhancer enhancer : enhancers) {
            if (result.confidence() >= confidentAbove) {
                break;
            }
            result = enhancer.refine(ctx.message(), result).orElse(result);
        }
        ctx.intent(result);
        next.proceed(ctx);
    }
}
