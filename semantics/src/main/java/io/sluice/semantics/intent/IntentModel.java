package io.sluice.semantics.intent;

import java.util.List;
import java.util.Objects;

/**
 * A trained intent classifier: one linear scorer per intent over the features (the normalised
 * embedding, the rule scores, a bias), a softmax with a temperature fitted on a calibration part so
 * the probabilities mean what they say, and the operating points that turn probabilities into a
 * decision. Immutable and thread-safe; a decision is one dot product per intent.
 *
 * @param keys          intent keys, one per class
 * @param priorities    each class's priority (S, A or B)
 * @param weights       per class, one weight per feature (the last feature is the constant 1)
 * @param temperature   softmax temperature fitted on the calibration part
 * @param minConfidence below this top probability the message counts as out of domain (class B)
 * @param sFloor        a message whose S classes together reach this probability is S (an S request
 *                      sent to B costs far more than an A or B request sent to S)
 * @param embedder      the embedding model the features came from (a model never answers for another)
 * @param heldOut       the held-out split it was evaluated on, kept to compare later versions on it
 */
public record IntentModel(List<String> keys, List<String> priorities, float[][] weights, double temperature,
        double minConfidence, double sFloor, String embedder, List<LabelledText> heldOut) {

    /** The key reported when a message is unlike every intent. */
    public static final String OUT_OF_DOMAIN = "out_of_domain";

    public IntentModel {
        keys = List.copyOf(keys);
        priorities = List.copyOf(priorities);
        heldOut = List.copyOf(heldOut);
        Objects.requireNonNull(weights, "weights");
        if (keys.size() != priorities.size() || keys.size() != weights.length || keys.isEmpty()) {
            throw new IllegalArgumentException("one key, priority and weight vector per class");
        }
        if (!(temperature > 0)) {
            throw new IllegalArgumentException("temperature must be positive");
        }
    }

    /** Number of features a message must have (the bias excluded). */
    public int features() {
        return weights[0].length - 1;
    }

    /**
     * A decision.
     *
     * @param intent      the intent key, or {@link #OUT_OF_DOMAIN}
     * @param priority    S, A or B
     * @param probability the calibrated probability of {@code intent} (of the top class when out of domain)
     * @param sMass       the probability of all S classes together
     */
    public record Decision(String intent, String priority, double probability, double sMass, String reason) {
    }

    /** Calibrated class probabilities for one feature vector ({@link #features()} values). */
    public double[] probabilities(float[] x) {
        if (x.length != features()) {
            throw new IllegalArgumentException("expected " + features() + " features, got " + x.length);
        }
        int classes = weights.length;
        double[] p = new double[classes];
        double max = Double.NEGATIVE_INFINITY;
        for (int c = 0; c < classes; c++) {
            float[] w = weights[c];
            double sum = w[w.length - 1];
            for (int i = 0; i < x.length; i++) {
                sum += w[i] * x[i];
            }
            p[c] = sum / temperature;
            max = Math.max(max, p[c]);
        }
        double total = 0;
        for (int c = 0; c < classes; c++) {
            p[c] = Math.exp(p[c] - max);
            total += p[c];
        }
        for (int c = 0; c < classes; c++) {
            p[c] /= total;
        }
        return p;
    }

    public Decision decide(float[] x) {
        return decide(probabilities(x));
    }

    /** The operating points applied to class probabilities. */
    public Decision decide(double[] p) {
        int best = 0;
        int bestS = -1;
        double sMass = 0;
        for (int c = 0; c < p.length; c++) {
            if (p[c] > p[best]) {
                best = c;
            }
            if ("S".equals(priorities.get(c))) {
                sMass += p[c];
                if (bestS < 0 || p[c] > p[bestS]) {
                    bestS = c;
                }
            }
        }
        if (bestS >= 0 && sMass >= sFloor && !"S".equals(priorities.get(best))) {
            return new Decision(keys.get(bestS), "S", p[bestS], sMass, "s_floor");
        }
        if (p[best] < minConfidence && !"S".equals(priorities.get(best))) {
            return new Decision(OUT_OF_DOMAIN, "B", p[best], sMass, "low_confidence");
        }
        return new Decision(keys.get(best), priorities.get(best), p[best], sMass, "model");
    }

    /** The class of an intent key of this model, or null. */
    public String priorityOf(String key) {
        int at = keys.indexOf(key);
        return at < 0 ? null : priorities.get(at);
    }
}
