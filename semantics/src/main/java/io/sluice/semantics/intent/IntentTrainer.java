package io.sluice.semantics.intent;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;

/**
 * Trains an {@link IntentModel} from the taxonomy: L2-regularised multinomial-style logistic regression
 * (liblinear, one-vs-rest, BSD-3) over the message features, then a softmax temperature fitted on a
 * calibration part of the training split so that the probabilities are calibrated.
 *
 * <p>The split is deterministic (by a hash of each text, per intent, stratified): the held-out part is
 * never seen by training or calibration and is what the model is evaluated and compared on. The
 * regularisation C is chosen on the calibration part among a few values, then the model is trained
 * again on the whole training split.
 */
public final class IntentTrainer {

    static {
        Linear.disableDebugOutput();
    }

    /**
     * @param heldOutFraction part of each intent's examples kept out of training for evaluation
     * @param minConfidence   the model's out-of-domain point (top probability below it → B)
     * @param sFloor          S probability mass at which a message is S
     */
    public record Settings(double heldOutFraction, double minConfidence, double sFloor) {
        public Settings {
            if (heldOutFraction < 0.05 || heldOutFraction > 0.5) {
                throw new IllegalArgumentException("heldOutFraction must be within 0.05-0.5");
            }
            if (minConfidence < 0 || minConfidence >= 1 || sFloor <= 0 || sFloor > 1) {
                throw new IllegalArgumentException("minConfidence in [0, 1), sFloor in (0, 1]");
            }
        }
    }

    /** A trained model with its held-out split (texts with their features, to evaluate on). */
    public record Trained(IntentModel model, List<LabelledText> heldOut, int trainingExamples, double c,
            long trainingMillis) {
    }

    private static final double[] C_CANDIDATES = {4, 16, 64};

    private final Function<List<String>, List<float[]>> features;

    /** @param features the message features, in order (the online path's own feature function) */
    public IntentTrainer(Function<List<String>, List<float[]>> features) {
        this.features = features;
    }

    public Trained train(List<IntentDefinition> taxonomy, String embedder, Settings settings) {
        long started = System.nanoTime();
        List<IntentDefinition> usable = taxonomy.stream().filter(i -> !i.examples().isEmpty())
            .sorted(Comparator.comparing(IntentDefinition::key)).toList();
        if (usable.size() < 2) {
            throw new IllegalArgumentException("training needs at least two intents with examples");
        }
        List<String> keys = usable.stream().map(IntentDefinition::key).toList();
        List<String> priorities = usable.stream().map(IntentDefinition::priority).toList();
        List<LabelledText> train = new ArrayList<>();
        List<LabelledText> calibrate = new ArrayList<>();
        List<LabelledText> heldOut = new ArrayList<>();
        for (IntentDefinition intent : usable) {
            List<String> texts = intent.examples().stream().distinct()
                .sorted(Comparator.comparingLong(IntentTrainer::hash).thenComparing(Comparator.naturalOrder())).toList();
            int n = texts.size();
            int held = n >= 3 ? Math.max(1, (int) Math.round(n * settings.heldOutFraction())) : 0;
            int cal = n - held >= 4 ? Math.max(1, (int) Math.round((n - held) * 0.15)) : 0;
            for (int i = 0; i < n; i++) {
                LabelledText t = new LabelledText(texts.get(i), intent.key());
                (i < held ? heldOut : i < held + cal ? calibrate : train).add(t);
            }
        }
        Map<String, float[]> x = embed(train, calibrate);
        int classes = keys.size();
        double bestC = C_CANDIDATES[1];
        double temperature = 1;
        if (!calibrate.isEmpty()) {
            double bestLoss = Double.POSITIVE_INFINITY;
            for (double c : C_CANDIDATES) {
                float[][] w = fit(train, keys, x, c);
                double[] fitted = fitTemperature(w, calibrate, keys, x);
                if (fitted[1] < bestLoss) {
                    bestLoss = fitted[1];
                    bestC = c;
                    temperature = fitted[0];
                }
            }
        }
        List<LabelledText> all = new ArrayList<>(train);
        all.addAll(calibrate);
        float[][] weights = fit(all, keys, x, bestC);
        IntentModel model = new IntentModel(keys, priorities, weights, temperature, settings.minConfidence(),
            settings.sFloor(), embedder, heldOut);
        if (classes != model.keys().size()) {
            throw new IllegalStateException("class count changed");
        }
        return new Trained(model, heldOut, all.size(), bestC, (System.nanoTime() - started) / 1_000_000);
    }

    private Map<String, float[]> embed(List<LabelledText> a, List<LabelledText> b) {
        List<String> texts = new ArrayList<>();
        a.forEach(t -> texts.add(t.text()));
        b.forEach(t -> texts.add(t.text()));
        List<String> distinct = texts.stream().distinct().toList();
        List<float[]> vectors = features.apply(distinct);
        Map<String, float[]> out = new LinkedHashMap<>();
        for (int i = 0; i < distinct.size(); i++) {
            out.put(distinct.get(i), vectors.get(i));
        }
        return out;
    }

    /** liblinear L2R_LR; returns one weight vector per class (bias last). */
    static float[][] fit(List<LabelledText> examples, List<String> keys, Map<String, float[]> x, double c) {
        int d = x.values().iterator().next().length;
        Problem problem = new Problem();
        problem.l = examples.size();
        problem.n = d + 1;
        problem.bias = -1;
        problem.y = new double[examples.size()];
        problem.x = new Feature[examples.size()][];
        for (int i = 0; i < examples.size(); i++) {
            LabelledText t = examples.get(i);
            problem.y[i] = keys.indexOf(t.intent());
            problem.x[i] = nodes(x.get(t.text()));
        }
        Model model = Linear.train(problem, new Parameter(SolverType.L2R_LR, c, 0.01));
        double[] w = model.getFeatureWeights();
        int[] labels = model.getLabels();
        int nrClass = model.getNrClass();
        int nrW = nrClass == 2 ? 1 : nrClass;
        float[][] weights = new float[keys.size()][d + 1];
        for (int j = 0; j < keys.size(); j++) {
            java.util.Arrays.fill(weights[j], 0f);
            weights[j][d] = -20f;   // a class liblinear never saw (no training examples left) never wins
        }
        for (int k = 0; k < nrClass; k++) {
            int cls = labels[k];
            for (int i = 0; i <= d; i++) {
                double v = nrW == 1 ? (k == 0 ? w[i] : -w[i]) : w[i * nrW + k];
                weights[cls][i] = (float) v;
            }
        }
        return weights;
    }

    private static Feature[] nodes(float[] v) {
        Feature[] nodes = new Feature[v.length + 1];
        for (int i = 0; i < v.length; i++) {
            nodes[i] = new FeatureNode(i + 1, v[i]);
        }
        nodes[v.length] = new FeatureNode(v.length + 1, 1.0);
        return nodes;
    }

    /** The temperature minimising the calibration part's log loss, and that loss. */
    private static double[] fitTemperature(float[][] w, List<LabelledText> calibrate, List<String> keys,
            Map<String, float[]> x) {
        double bestT = 1;
        double bestLoss = Double.POSITIVE_INFINITY;
        for (double t = 0.05; t <= 20; t *= 1.15) {
            IntentModel probe = new IntentModel(keys, keys.stream().map(k -> "B").toList(), w, t, 0, 1, "", List.of());
            double loss = 0;
            for (LabelledText example : calibrate) {
                double[] p = probe.probabilities(x.get(example.text()));
                loss -= Math.log(Math.max(1e-12, p[keys.indexOf(example.intent())]));
            }
            if (loss < bestLoss) {
                bestLoss = loss;
                bestT = t;
            }
        }
        return new double[] {bestT, bestLoss / calibrate.size()};
    }

    /** A stable hash of a text (FNV-1a 64), so the same taxonomy always splits the same way. */
    static long hash(String text) {
        long h = 0xcbf29ce484222325L;
        for (int i = 0; i < text.length(); i++) {
            h ^= text.charAt(i);
            h *= 0x100000001b3L;
        }
        return h;
    }
}
