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
        PairRules.Verdict veto = veto(x);
        if (veto != null) {
            return new Decision(false, veto, Double.NaN);
        }
        double p = model.probability(x);
        boolean serve = cosine >= model.candidateFloor() && p >= model.threshold(level);
        return new Decision(serve, serve ? PairRules.Verdict.ACCEPTED : PairRules.Verdict.MODEL, p);
    }

    /**
     * Disagreements no learned weight may outvote: different numbers (五点半 / 六点半), a reversed or
     * changed direction (上海到郑州 / 郑州到上海), one side negated (可以转账 / 无法转账). They never share
     * an answer, whatever else the two questions share.
     */
    static PairRules.Verdict veto(double[] x) {
        if (x[PairFeatures.NUMBERS_DIFFER] == 1) {
            return PairRules.Verdict.NUMBERS;
        }
        if (x[PairFeatures.DIRECTION_DIFFERS] == 1) {
            return PairRules.Verdict.DIRECTION;
        }
        if (x[PairFeatures.NEGATION_DIFFERS] == 1) {
            return PairRules.Verdict.NEGATION;
        }
        return null;
    }

    /** The model's score of a pair as the online path sees it: -1 when never a candidate or vetoed. */
    static double score(PairModel model, double[] x) {
        return x[0] < model.candidateFloor() || veto(x) != null ? -1 : model.probability(x);
    }

    /** The same decision on a precomputed feature vector (training baselines). */
    static boolean serves(PairModel model, String level, double levelCosine, double[] x) {
        if (model.builtIn()) {
            return x[0] >= levelCosine && x[PairFeatures.RULES_ACCEPT] == 1;
        }
        double s = score(model, x);
        return s >= 0 && s >= model.threshold(level);
    }
}
