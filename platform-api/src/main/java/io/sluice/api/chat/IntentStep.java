package io.sluice.api.chat;

import java.util.List;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.intent.IntentEnhancer;
import io.sluice.api.intent.IntentMetrics;
import io.sluice.api.intent.IntentPath;
import io.sluice.api.intent.IntentResult;
import io.sluice.api.intent.RuleIntentClassifier;

/**
 * Intent: the rules always; then each {@link IntentEnhancer} enabled for the request's path (embedding
 * kNN, then the LLM) while the result is less confident than {@code confidentAbove}. The intent fixes
 * the priority class.
 */
public final class IntentStep implements ChatStep {

    private final RuleIntentClassifier rules;
    private final Iterable<IntentEnhancer> enhancers;
    private final double confidentAbove;
    private final IntentMetrics metrics;

    public IntentStep(RuleIntentClassifier rules, Iterable<IntentEnhancer> enhancers, double confidentAbove,
            IntentMetrics metrics) {
        this.rules = rules;
        this.enhancers = enhancers;
        this.confidentAbove = confidentAbove;
        this.metrics = metrics;
    }

    public IntentStep(RuleIntentClassifier rules, Iterable<IntentEnhancer> enhancers, double confidentAbove) {
        this(rules, enhancers, confidentAbove, new IntentMetrics(new SimpleMeterRegistry()));
    }

    public IntentStep(RuleIntentClassifier rules) {
        this(rules, List.of(), 1.0);
    }

    @Override
    public void apply(ChatContext ctx, Next next) {
        long started = System.nanoTime();
        IntentPath path = ctx.stream() != null ? IntentPath.STREAM : IntentPath.CHAT;
        IntentResult result = rules.classify(ctx.message());
        for (IntentEnhancer enhancer : enhancers) {
            if (result.confidence() >= confidentAbove) {
                break;
            }
            if (enhancer.enabledFor(path)) {
                result = metrics.ask(enhancer, ctx.message(), result).orElse(result);
            }
        }
        metrics.decided(result, System.nanoTime() - started);
        ctx.intent(result);
        next.proceed(ctx);
    }
}
