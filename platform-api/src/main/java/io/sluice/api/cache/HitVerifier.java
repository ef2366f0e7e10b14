package io.sluice.api.cache;

import io.sluice.semantics.pairs.PairModel;
import io.sluice.semantics.pairs.PairRules;
import io.sluice.semantics.pairs.PairVerifier;
import io.sluice.semantics.pairs.QuestionAnalyzer;

/**
 * The check a semantic (L2) hit must pass beyond cosine similarity: embeddings put "退货的运费谁来出"
 * and "退货的退款多久到账" close together, but they need different answers. The decision is the
 * semantics module's {@link PairVerifier}: the pair model trained and calibrated on the operator's
 * labelled pairs when one is active, else the built-in rules ({@link PairRules}: numbers, negation,
 * direction and customer-service concepts must agree) at the level's cosine threshold.
 */
public final class HitVerifier {

    /** Why a candidate was refused (metric tag). */
    public enum Verdict { ACCEPTED, NUMBERS, NEGATION, DIRECTION, TERMS, MODEL }

    private final PairVerifier pairs;
    private final int maxCandidates;

    /** The built-in rules only (no learned model). */
    public HitVerifier() {
        this(PairVerifier.fixed(PairModel.BUILT_IN), 5);
    }

    /** @param maxCandidates with a trained model, how many of the closest candidates it scores per lookup */
    public HitVerifier(PairVerifier pairs, int maxCandidates) {
        this.pairs = pairs;
        this.maxCandidates = maxCandidates;
    }

    public int maxCandidates() {
        return maxCandidates;
    }

    public PairVerifier pairs() {
        return pairs;
    }

    /** The built-in rules on two questions (cosine aside). */
    public Verdict verify(String cachedQuestion, String newQuestion) {
        QuestionAnalyzer analyzer = pairs.analyzer();
        return of(PairRules.verify(analyzer.analyze(cachedQuestion), analyzer.analyze(newQuestion)));
    }

    static Verdict of(PairRules.Verdict verdict) {
        return Verdict.valueOf(verdict.name());
    }
}
