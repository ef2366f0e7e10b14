package io.sluice.api.intent;

import java.util.List;
import java.util.function.Supplier;

import io.sluice.semantics.intent.IntentModel;

/**
 * The intent decision the chat runs (the intent step and the {@code intent} evaluation both call it).
 *
 * <p>With a trained model: the model decides over the embedding and the rule scores (calibrated
 * probabilities; out of domain / low confidence → B; enough S probability → S), and the rules override
 * it only where they are precise — an S rule at least {@code ruleOverrideAbove} confident. Without
 * one: the rules, then each {@link IntentEnhancer} enabled for the path (sample kNN, the LLM) while the
 * result is less confident than {@code confidentAbove}.
 */
public final class OnlineIntent {

    private final RuleIntentClassifier rules;
    private final Iterable<IntentEnhancer> enhancers;
    private final double confidentAbove;
    private final IntentMetrics metrics;
    private final IntentFeatures features;
    private final Supplier<IntentModel> active;
    private final double ruleOverrideAbove;

    /**
     * @param features the trained model's features (null: never a model)
     * @param active   the model answering now, or null (then the rules and enhancers decide)
     */
    public OnlineIntent(RuleIntentClassifier rules, Iterable<IntentEnhancer> enhancers, double confidentAbove,
            IntentMetrics metrics, IntentFeatures features, Supplier<IntentModel> active, double ruleOverrideAbove) {
        this.rules = rules;
        this.enhancers = enhancers;
        this.confidentAbove = confidentAbove;
        this.metrics = metrics;
        this.features = features;
        this.active = active;
        this.ruleOverrideAbove = ruleOverrideAbove;
    }

    /** The trained model answering now, or null (the rules and enhancers decide). */
    public IntentModel model() {
        return features == null ? null : active.get();
    }

    /** Classifies with the active model (or without one when none is active). */
    public IntentResult classify(String message, IntentPath path) {
        return classify(message, path, features == null ? null : active.get());
    }

    /** Classifies as the chat would with {@code model} active (null = no model: rules and enhancers). */
    public IntentResult classify(String message, IntentPath path, IntentModel model) {
        return classify(message, path, model, null);
    }

    /**
     * As {@link #classify(String, IntentPath, IntentModel)}, with the message's features when they are
     * already known (a training's held-out split was embedded with its training part: not again).
     */
    public IntentResult classify(String message, IntentPath path, IntentModel model, float[] known) {
        long started = System.nanoTime();
        IntentResult byRules = rules.classify(message);
        IntentResult result;
        if (model != null) {
            float[] x = known != null && known.length == model.features() ? known : features.of(message);
            result = decide(model, x, byRules, ruleOverrideAbove);
        } else {
            result = byRules;
            for (IntentEnhancer enhancer : enhancers) {
                if (result.confidence() >= confidentAbove) {
                    break;
                }
                if (enhancer.enabledFor(path)) {
                    result = metrics.ask(enhancer, message, result).orElse(result);
                }
            }
        }
        metrics.decided(result, System.nanoTime() - started);
        return result;
    }

    /** The trained model's decision, the precise rules overriding it. Pure. */
    public static IntentResult decide(IntentModel model, float[] features, IntentResult byRules, double ruleOverrideAbove) {
        double[] p = model.probabilities(features);
        IntentModel.Decision decision = model.decide(p);
        boolean ruleOverride = byRules.priority() == Priority.S && byRules.confidence() >= ruleOverrideAbove;
        if (ruleOverride && !"S".equals(decision.priority())) {
            // the rule names the class; the intent is the operator's most probable S intent, if it has any
            int bestS = -1;
            for (int c = 0; c < p.length; c++) {
                if ("S".equals(model.priorities().get(c)) && (bestS < 0 || p[c] > p[bestS])) {
                    bestS = c;
                }
            }
            String code = bestS < 0 ? byRules.code() : model.keys().get(bestS);
            return new IntentResult(code, Priority.S, byRules.confidence(), "rules",
                concat(byRules.evidence(), "override"));
        }
        return new IntentResult(decision.intent(), Priority.valueOf(decision.priority()), decision.probability(), "model",
            List.of(decision.reason()));
    }

    private static List<String> concat(List<String> a, String b) {
        List<String> out = new java.util.ArrayList<>(a);
        out.add(b);
        return out;
    }
}
