package io.sluice.semantics.pairs;

import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.sluice.semantics.model.ActiveModel;

/**
 * The online cache-hit decision for one candidate: the model answering now (trained on the operator's
 * pairs, or the built-in default) at the request's degradation level. The cache's L2 matcher and the
 * {@code cache-pairs} evaluation both call this, so what is measured is what serves.
 */
public final class PairVerifier {

    public static final String KIND = "pair-verifier";

    /** One decision: served or not, why not, and the model's probability (NaN for the built-in rules). */
    public record Decision(boolean serve, PairRules.Verdict verdict, double probability) {
    }

    private final Supplier<PairModel> model;
    private final LongSupplier version;
    private final QuestionAnalyzer analyzer;

    public PairVerifier(ActiveModel<PairModel> active, QuestionAnalyzer analyzer) {
        this(active::get, active::version, analyzer);
    }

    private PairVerifier(Supplier<PairModel> model, LongSupplier version, QuestionAnalyzer analyzer) {
        this.model = model;
        this.version = version;
        this.analyzer = analyzer;
    }

    /** A verifier that always answers with one model (tests, benchmarks, the built-in default). */
    public static PairVerifier fixed(PairModel model) {
        return new PairVerifier(() -> model, () -> 0, new QuestionAnalyzer());
    }

    public QuestionAnalyzer analyzer() {
        return analyzer;
    }

    /** The model deciding now; read it once per lookup so one lookup sees one model. */
    public PairModel model() {
        return model.get();
    }

    /** The stored version deciding now (0 = built-in default). */
    public long version() {
        return version.getAsLong();
    }

    /**
     * The lowest cosine a candidate needs at this level: the level's knob threshold for the built-in
     * default, the model's candidate floor for a trained one.
     */
    public double candidateCosine(PairModel model, double levelCosine) {
        return model.builtIn() ? levelCosine : Math.min(levelCosine, model.candidateFloor());
    }

    public Decision decide(PairModel model, String level, double levelCosine, double cosine, QuestionSignals cached,
            PairFeatures.Labels cachedLabels, QuestionSignals asked, PairFeatures.Labels askedLabels) {
        if (model.builtIn()) {
            if (cosine < levelCosine) {
                return new Decision(false, PairRules.Verdict.TERMS, Double.NaN);
            }
            PairRules.Verdict verdict = PairRules.verify(cached, asked);
            return new Decision(verdict == PairRules.Verdict.ACCEPTED, verdict, Double.NaN);
        }
        double[] x = PairFeatures.of(cached, asked, cosine, cachedLabels, askedLabels);
        double p = model.probability(x);
        boolean serve = cosine >= model.candidateFloor() && p >= model.threshold(level);
        return new Decision(serve, serve ? PairRules.Verdict.ACCEPTED : PairRules.Verdict.MODEL, p);
    }

    /** The same decision on a precomputed feature vector (training baselines). */
    static boolean serves(PairModel model, String level, double levelCosine, double[] x) {
        if (model.builtIn()) {
            return x[0] >= levelCosine && x[14] == 1;
        }
        return x[0] >= model.candidateFloor() && model.probability(x) >= model.threshold(level);
    }
}
