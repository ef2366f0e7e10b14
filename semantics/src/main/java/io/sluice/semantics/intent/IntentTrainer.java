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
 * (liblinear, one-vs-rest, BSD-3) over the message features, then a softmax temperature fitted on
 * out-of-fold scores so that the probabilities are calibrated.
 *
 * <p>The split is deterministic (by a hash of each text, per intent, stratified): the held-out part is
 * never seen by training or calibration and is what the model is evaluated and compared on. The
 * regularisation C, the temperature and the S floor are chosen on out-of-fold scores of the training
 * split (each example scored by a model that did not see it), then the model is trained on the whole
 * training split.
 */
public final class IntentTrainer {

    static {
        Linear.disableDebugOutput();
    }

    /**
     * @param heldOutFraction part of each intent's examples kept out of training for evaluation
     * @param minConfidence   the model's out-of-domain point (top probability below it → B)
     * @param sFloor          the highest S floor (S probability mass at which a message is S); training lowers
     *                        it until the out-of-fold S→B rate is within 2 %
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

    /**
     * A trained model with its held-out split and the features of every text it embedded (held-out ones
     * included), so the evaluation that follows never embeds a text a second time.
     */
    public record Trained(IntentModel model, List<LabelledText> heldOut, int trainingExamples, double c,
            long trainingMillis, long embeddingMillis, Map<String, float[]> features) {

        public Trained {
            features = features == null ? Map.of() : java.util.Collections.unmodifiableMap(features);
        }

        /** The features of a text this training embedded, or null. */
        public float[] featuresOf(String text) {
            return features.get(text);
        }
    }

    private static final double[] C_CANDIDATES = {4, 16, 64};

    /** The S→B rate the S floor is chosen to stay within (on out-of-fold decisions). */
    static final double TARGET_S_TO_B = 0.02;

    private final Function<List<String>, List<float[]>> features;

    /** @param features the message features, in order (the online path's own feature function) */
    public IntentTrainer(Function<List<String>, List<float[]>> features) {
        this.features = features;
    }

    public Trained train(List<IntentDefinition> taxonomy, String embedder, Settings settings) {
        return train(taxonomy, embedder, settings, phase -> { });
    }

    /** @param phase hears each step as it starts (what a training's status shows) */
    public Trained train(List<IntentDefinition> taxonomy, String embedder, Settings settings,
            java.util.function.Consumer<String> phase) {
        long started = System.nanoTime();
        List<IntentDefinition> usable = taxonomy.stream().filter(i -> !i.examples().isEmpty())
            .sorted(Comparator.comparing(IntentDefinition::key)).toList();
        if (usable.size() < 2) {
            throw new IllegalArgumentException("training needs at least two intents with examples");
        }
        List<String> keys = usable.stream().map(IntentDefinition::key).toList();
        List<String> priorities = usable.stream().map(IntentDefinition::priority).toList();
        List<LabelledText> train = new ArrayList<>();
        List<LabelledText> heldOut = new ArrayList<>();
        for (IntentDefinition intent : usable) {
            List<String> texts = intent.examples().stream().distinct()
                .sorted(Comparator.comparingLong(IntentTrainer::hash).thenComparing(Comparator.naturalOrder())).toList();
            int n = texts.size();
            int held = n >= 3 ? Math.max(1, (int) Math.round(n * settings.heldOutFraction())) : 0;
            for (int i = 0; i < n; i++) {
                (i < held ? heldOut : train).add(new LabelledText(texts.get(i), intent.key()));
            }
        }
        // one batched pass over every distinct text, held-out ones too: the evaluation reuses them
        List<LabelledText> all = new ArrayList<>(train);
        all.addAll(heldOut);
        phase.accept("embedding " + all.size() + " examples");
        Map<String, float[]> x = embed(all);
        phase.accept("fitting on " + train.size() + " examples");
        long embedded = System.nanoTime();
        // out-of-fold scores of every training example: choose C, the temperature and the S floor on them,
        // never on the held-out split
        // large problems (many examples × many intents) keep training in seconds: the dual solver, one C, 2 folds
        boolean large = (long) train.size() * keys.size() > LARGE;
        Solver solver = large ? new Solver(SolverType.L2R_LR_DUAL, 0.1) : new Solver(SolverType.L2R_LR, 0.01);
        int folds = large ? 2 : 3;
        double[] candidates = large ? new double[] {16} : C_CANDIDATES;
        double bestC = candidates[0];
        double[][] bestScores = null;
        double temperature = 1;
        double bestLoss = Double.POSITIVE_INFINITY;
        for (double c : candidates) {
            double[][] scores = outOfFold(train, keys, priorities, x, c, folds, solver);
            double[] fitted = fitTemperature(scores, train, keys);
            if (fitted[1] < bestLoss) {
                bestLoss = fitted[1];
                bestC = c;
                temperature = fitted[0];
                bestScores = scores;
            }
        }
        double sFloor = chooseSFloor(bestScores, temperature, train, keys, priorities, settings);
        float[][] weights = fit(train, keys, priorities, x, bestC, solver);
        IntentModel model = new IntentModel(keys, priorities, weights, temperature, settings.minConfidence(), sFloor,
            embedder, heldOut);
        long done = System.nanoTime();
        return new Trained(model, heldOut, train.size(), bestC, (done - started) / 1_000_000,
            (embedded - started) / 1_000_000, x);
    }

    /** Each training example scored by a model that did not see it (folds by position in the hashed order). */
    private static double[][] outOfFold(List<LabelledText> train, List<String> keys, List<String> priorities,
            Map<String, float[]> x, double c, int folds, Solver solver) {
        double[][] scores = new double[train.size()][];
        // the folds are independent liblinear fits (each single-threaded): run them side by side
        java.util.stream.IntStream.range(0, folds).parallel().forEach(f -> {
            List<LabelledText> in = new ArrayList<>();
            List<Integer> out = new ArrayList<>();
            for (int i = 0; i < train.size(); i++) {
                if (i % folds == f) {
                    out.add(i);
                } else {
                    in.add(train.get(i));
                }
            }
            float[][] w = fit(in, keys, priorities, x, c, solver);
            for (int i : out) {
                scores[i] = scoresOf(w, x.get(train.get(i).text()));
            }
        });
        return scores;
    }

    static double[] scoresOf(float[][] w, float[] x) {
        double[] s = new double[w.length];
        for (int c = 0; c < w.length; c++) {
            double sum = w[c][x.length];
            for (int i = 0; i < x.length; i++) {
                sum += w[c][i] * x[i];
            }
            s[c] = sum;
        }
        return s;
    }

    static double[] softmax(double[] scores, double temperature) {
        double max = Double.NEGATIVE_INFINITY;
        for (double v : scores) {
            max = Math.max(max, v / temperature);
        }
        double[] p = new double[scores.length];
        double total = 0;
        for (int c = 0; c < p.length; c++) {
            p[c] = Math.exp(scores[c] / temperature - max);
            total += p[c];
        }
        for (int c = 0; c < p.length; c++) {
            p[c] /= total;
        }
        return p;
    }

    /**
     * The S floor: the highest one (fewest needless S) whose out-of-fold S→B rate is within the target,
     * ties broken by priority accuracy; with no S intents it does not matter.
     */
    private static double chooseSFloor(double[][] scores, double temperature, List<LabelledText> train, List<String> keys,
            List<String> priorities, Settings settings) {
        double best = settings.sFloor();
        double bestAccuracy = -1;
        boolean bestMeets = false;
        for (double floor = settings.sFloor(); floor >= 0.099; floor -= 0.05) {
            IntentModel probe = new IntentModel(keys, priorities, new float[keys.size()][2], 1, settings.minConfidence(),
                floor, "", List.of());
            int s = 0;
            int sToB = 0;
            int correct = 0;
            for (int i = 0; i < train.size(); i++) {
                String expected = priorities.get(keys.indexOf(train.get(i).intent()));
                String decided = probe.decide(softmax(scores[i], temperature)).priority();
                correct += expected.equals(decided) ? 1 : 0;
                if (expected.equals("S")) {
                    s++;
                    sToB += decided.equals("B") ? 1 : 0;
                }
            }
            boolean meets = s == 0 || (double) sToB / s <= TARGET_S_TO_B;
            double accuracy = (double) correct / train.size();
            if (meets && (!bestMeets || accuracy > bestAccuracy) || !bestMeets && !meets && accuracy > bestAccuracy) {
                best = floor;
                bestAccuracy = accuracy;
                bestMeets = meets;
            }
        }
        return best;
    }

    private Map<String, float[]> embed(List<LabelledText> a) {
        List<String> texts = new ArrayList<>();
        a.forEach(t -> texts.add(t.text()));
        List<String> distinct = texts.stream().distinct().toList();
        List<float[]> vectors = features.apply(distinct);
        Map<String, float[]> out = new LinkedHashMap<>();
        for (int i = 0; i < distinct.size(); i++) {
            out.put(distinct.get(i), vectors.get(i));
        }
        return out;
    }

    /**
     * Misclassification cost of an S example relative to others: an urgent request sent to the slowest
     * lane is the costliest mistake, so S examples weigh more in the loss (liblinear class weights).
     */
    static final double S_WEIGHT = 2.0;

    /** A liblinear solver and its stopping tolerance. */
    record Solver(SolverType type, double eps) {
    }

    /** Examples × intents above which training takes the fast path (dual solver, fixed C, 2 folds). */
    static final long LARGE = 30_000;

    /**
     * One-vs-rest like liblinear's own multi-class training (each intent against the rest, an S intent's
     * positives weighing {@link #S_WEIGHT}), but the binary problems are fitted side by side: liblinear is
     * single-threaded and a large taxonomy has dozens of them. The sparse rows are built once and shared.
     */
    static float[][] fit(List<LabelledText> examples, List<String> keys, List<String> priorities,
            Map<String, float[]> x, double c, Solver solver) {
        int d = x.values().iterator().next().length;
        Map<String, Integer> index = new java.util.HashMap<>();
        for (int k = 0; k < keys.size(); k++) {
            index.put(keys.get(k), k);
        }
        int n = examples.size();
        Feature[][] rows = new Feature[n][];
        int[] label = new int[n];
        Map<String, Feature[]> sparse = new java.util.HashMap<>();
        for (int i = 0; i < n; i++) {
            LabelledText t = examples.get(i);
            label[i] = index.get(t.intent());
            rows[i] = sparse.computeIfAbsent(t.text(), text -> nodes(x.get(text)));
        }
        float[][] weights = new float[keys.size()][d + 1];
        java.util.stream.IntStream.range(0, keys.size()).parallel().forEach(k -> {
            float[] w = weights[k];
            boolean seen = false;
            boolean others = false;
            for (int l : label) {
                seen |= l == k;
                others |= l != k;
            }
            if (!seen || !others) {
                w[d] = seen ? 20f : -20f;   // a class with no training examples left never wins
                return;
            }
            Problem problem = new Problem();
            problem.l = n;
            problem.n = d + 1;
            problem.bias = -1;
            problem.x = rows;
            problem.y = new double[n];
            for (int i = 0; i < n; i++) {
                problem.y[i] = label[i] == k ? 1 : -1;
            }
            Parameter parameter = new Parameter(solver.type(), c, solver.eps());
            if ("S".equals(priorities.get(k))) {
                parameter.setWeights(new double[] {S_WEIGHT}, new int[] {1});
            }
            Model model = Linear.train(problem, parameter);
            double[] fitted = model.getFeatureWeights();
            // liblinear orders labels by first appearance; its single weight vector scores labels[0]
            double sign = model.getLabels()[0] == 1 ? 1 : -1;
            for (int i = 0; i <= d; i++) {
                w[i] = (float) (sign * fitted[i]);
            }
        });
        return weights;
    }

    /** Sparse: only non-zero features (a message fills one script's embedding part), then the bias. */
    private static Feature[] nodes(float[] v) {
        List<Feature> nodes = new ArrayList<>(v.length + 1);
        for (int i = 0; i < v.length; i++) {
            if (v[i] != 0f) {
                nodes.add(new FeatureNode(i + 1, v[i]));
            }
        }
        nodes.add(new FeatureNode(v.length + 1, 1.0));
        return nodes.toArray(Feature[]::new);
    }

    /** The temperature minimising the out-of-fold log loss, and that loss. */
    private static double[] fitTemperature(double[][] scores, List<LabelledText> train, List<String> keys) {
        double bestT = 1;
        double bestLoss = Double.POSITIVE_INFINITY;
        int[] label = new int[train.size()];
        for (int i = 0; i < label.length; i++) {
            label[i] = keys.indexOf(train.get(i).intent());
        }
        for (double t = 0.05; t <= 20; t *= 1.15) {
            double loss = 0;
            for (int i = 0; i < train.size(); i++) {
                double[] p = softmax(scores[i], t);
                loss -= Math.log(Math.max(1e-12, p[label[i]]));
            }
            if (loss < bestLoss) {
                bestLoss = loss;
                bestT = t;
            }
        }
        return new double[] {bestT, bestLoss / train.size()};
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
