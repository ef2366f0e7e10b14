package io.sluice.semantics.pairs;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import de.bwaldvogel.liblinear.Feature;
import de.bwaldvogel.liblinear.FeatureNode;
import de.bwaldvogel.liblinear.Linear;
import de.bwaldvogel.liblinear.Model;
import de.bwaldvogel.liblinear.Parameter;
import de.bwaldvogel.liblinear.Problem;
import de.bwaldvogel.liblinear.SolverType;

import io.sluice.knowledge.embedding.Embedder;

import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Trains a {@link PairModel} from labelled pairs: a stable split puts {@code calibrationShare} % of the
 * pairs aside; L2-regularised logistic regression (liblinear) is fitted on the rest; the operating point
 * of every level is then chosen on the held-out part to meet its target precision. Takes seconds for a
 * few thousand pairs (the embedding dominates).
 */
public final class PairTrainer {

    /** What a training produced, with the figures measured on the held-out part. */
    public record Result(PairModel model, List<Calibration.OperatingPoint> points, List<Calibration.Point> curve,
            int fitPairs, int heldOutPairs, String evaluationJson) {

        public Calibration.OperatingPoint point(String level) {
            return points.stream().filter(p -> p.level().equals(level)).findFirst().orElseThrow();
        }
    }

    public static final List<String> LEVELS = List.of("L0", "L1", "L2", "L3");
    private static final ObjectMapper JSON = JsonMapper.builder().build();

    private final Embedder embedder;
    private final QuestionAnalyzer analyzer;
    private final PairsProperties properties;

    public PairTrainer(Embedder embedder, QuestionAnalyzer analyzer, PairsProperties properties) {
        this.embedder = embedder;
        this.analyzer = analyzer;
        this.properties = properties;
    }

    /** The pairs a training would hold out for calibration (for reports and tests). */
    public List<LabelledPair> heldOut(List<LabelledPair> pairs) {
        return pairs.stream().filter(p -> p.bucket() < properties.calibrationShare()).toList();
    }

    /**
     * @param active the model answering now, measured on the same held-out part for comparison (null or
     *               built-in: the built-in rules at the levels' cosine thresholds are the baseline)
     * @param levelCosine the cosine threshold of each level's knobs (for the built-in baseline)
     */
    public Result train(List<LabelledPair> pairs, PairModel active, Map<String, Double> levelCosine) {
        List<LabelledPair> fit = new ArrayList<>();
        List<LabelledPair> held = new ArrayList<>();
        for (LabelledPair p : pairs) {
            (p.bucket() < properties.calibrationShare() ? held : fit).add(p);
        }
        requireBothLabels(fit, "training");
        requireBothLabels(held, "held-out");
        Map<String, float[]> vectors = embed(pairs);
        Map<String, QuestionSignals> signals = new HashMap<>();
        List<double[]> fitX = new ArrayList<>();
        for (LabelledPair p : fit) {
            fitX.add(features(p, vectors, signals));
        }
        PairModel unscored = fitModel(fitX, fit);
        List<Calibration.Scored> scored = new ArrayList<>();
        List<double[]> heldX = new ArrayList<>();
        for (LabelledPair p : held) {
            double[] x = features(p, vectors, signals);
            heldX.add(x);
            scored.add(new Calibration.Scored(PairVerifier.score(unscored, x), p.same()));
        }
        List<Calibration.Point> curve = Calibration.curve(scored);
        // the held-out pairs the model is most wrong about, so the operator sees what to label next
        List<Map<String, Object>> errors = new ArrayList<>();
        for (int i = 0; i < held.size(); i++) {
            double s = scored.get(i).score();
            if (s >= 0 && (held.get(i).same() ? s < 0.3 : s > 0.5)) {
                Map<String, Object> e = new LinkedHashMap<>();
                e.put("a", held.get(i).a());
                e.put("b", held.get(i).b());
                e.put("same", held.get(i).same());
                e.put("probability", Calibration.round(s));
                e.put("cosine", Calibration.round(heldX.get(i)[0]));
                errors.add(e);
            }
        }
        errors.sort(java.util.Comparator.comparingDouble(e -> -Math.abs((double) e.get("probability") - 0.5)));
        List<Calibration.OperatingPoint> points = new ArrayList<>();
        Map<String, Double> thresholds = new LinkedHashMap<>();
        for (String level : LEVELS) {
            Calibration.OperatingPoint point = Calibration.choose(level, properties.target(level), curve,
                properties.minServed());
            points.add(point);
            thresholds.put(level, point.threshold());
        }
        PairModel model = new PairModel(unscored.features(), unscored.weights(), unscored.bias(),
            unscored.candidateFloor(), thresholds);
        Map<String, Object> evaluation = new LinkedHashMap<>();
        evaluation.put("fitPairs", fit.size());
        evaluation.put("heldOutPairs", held.size());
        evaluation.put("heldOutPositives", held.stream().filter(LabelledPair::same).count());
        evaluation.put("candidateFloor", model.candidateFloor());
        evaluation.put("points", points.stream().map(Calibration::describe).toList());
        evaluation.put("curve", Calibration.thin(curve, 60).stream().map(p -> List.of(Calibration.round(p.threshold()),
            Calibration.round(p.precision()), Calibration.round(p.recall()))).toList());
        Map<String, Double> weights = new LinkedHashMap<>();
        for (int i = 0; i < model.weights().length; i++) {
            weights.put(model.features().get(i), Calibration.round(model.weights()[i]));
        }
        weights.put("bias", Calibration.round(model.bias()));
        evaluation.put("weights", weights);
        evaluation.put("baseline", baseline(active, levelCosine, held, heldX));
        evaluation.put("errors", errors.subList(0, Math.min(errors.size(), 30)));
        return new Result(model, points, curve, fit.size(), held.size(), JSON.writeValueAsString(evaluation));
    }

    /** What the model answering now does on the same held-out part, per level. */
    private List<Map<String, Object>> baseline(PairModel active, Map<String, Double> levelCosine, List<LabelledPair> held,
            List<double[]> heldX) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (String level : LEVELS) {
            int served = 0;
            int correct = 0;
            int positives = 0;
            for (int i = 0; i < held.size(); i++) {
                double[] x = heldX.get(i);
                boolean serve = PairVerifier.serves(active == null ? PairModel.BUILT_IN : active, level,
                    levelCosine.getOrDefault(level, 0.92), x);
                positives += held.get(i).same() ? 1 : 0;
                if (serve) {
                    served++;
                    correct += held.get(i).same() ? 1 : 0;
                }
            }
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("level", level);
            m.put("precision", Calibration.round(served == 0 ? 1 : (double) correct / served));
            m.put("recall", Calibration.round(positives == 0 ? 0 : (double) correct / positives));
            m.put("served", served);
            out.add(m);
        }
        return out;
    }

    private PairModel fitModel(List<double[]> xs, List<LabelledPair> pairs) {
        Problem problem = new Problem();
        problem.l = xs.size();
        problem.n = PairFeatures.NAMES.size() + 1;
        problem.bias = 1;
        problem.x = new Feature[xs.size()][];
        problem.y = new double[xs.size()];
        for (int i = 0; i < xs.size(); i++) {
            double[] x = xs.get(i);
            Feature[] row = new Feature[x.length + 1];
            for (int j = 0; j < x.length; j++) {
                row[j] = new FeatureNode(j + 1, x[j]);
            }
            row[x.length] = new FeatureNode(x.length + 1, 1); // bias term
            problem.x[i] = row;
            problem.y[i] = pairs.get(i).same() ? 1 : 0;
        }
        Linear.disableDebugOutput();
        Linear.resetRandom();
        Model model = Linear.train(problem, new Parameter(SolverType.L2R_LR, properties.regularization(), 0.001));
        double[] w = model.getFeatureWeights();
        // liblinear's weights vote for its first label: flip them when that label is "different"
        double sign = model.getLabels()[0] == 1 ? 1 : -1;
        double[] weights = new double[PairFeatures.NAMES.size()];
        for (int j = 0; j < weights.length; j++) {
            weights[j] = sign * w[j];
        }
        double bias = sign * w[PairFeatures.NAMES.size()];
        return new PairModel(PairFeatures.NAMES, weights, bias, properties.candidateFloor(), Map.of());
    }

    private double[] features(LabelledPair p, Map<String, float[]> vectors, Map<String, QuestionSignals> signals) {
        QuestionSignals a = signals.computeIfAbsent(p.a(), analyzer::analyze);
        QuestionSignals b = signals.computeIfAbsent(p.b(), analyzer::analyze);
        return PairFeatures.of(a, b, cosine(vectors.get(p.a()), vectors.get(p.b())), p.labelsA(), p.labelsB());
    }

    /** Embeds every distinct question once. */
    public Map<String, float[]> embed(List<LabelledPair> pairs) {
        List<String> texts = new ArrayList<>(new LinkedHashSet<>(pairs.stream()
            .flatMap(p -> java.util.stream.Stream.of(p.a(), p.b())).toList()));
        Map<String, float[]> out = new HashMap<>();
        for (int from = 0; from < texts.size(); from += 64) {
            List<String> batch = texts.subList(from, Math.min(texts.size(), from + 64));
            List<float[]> vectors = embedder.embedAll(batch);
            for (int i = 0; i < batch.size(); i++) {
                out.put(batch.get(i), vectors.get(i));
            }
        }
        return out;
    }

    public static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return na == 0 || nb == 0 ? 0 : dot / Math.sqrt(na * nb);
    }

    private void requireBothLabels(List<LabelledPair> part, String name) {
        long same = part.stream().filter(LabelledPair::same).count();
        if (same < properties.minPairsPerLabel() || part.size() - same < properties.minPairsPerLabel()) {
            throw new IllegalArgumentException("too few labelled pairs to train: the " + name + " part needs at least "
                + properties.minPairsPerLabel() + " 'same' and " + properties.minPairsPerLabel()
                + " 'different' pairs (has " + same + " and " + (part.size() - same) + ")");
        }
    }
}
