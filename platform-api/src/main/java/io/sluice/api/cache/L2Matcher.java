package io.sluice.api.cache;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

import io.sluice.semantics.pairs.PairFeatures;
import io.sluice.semantics.pairs.PairModel;
import io.sluice.semantics.pairs.PairVerifier;
import io.sluice.semantics.pairs.QuestionAnalyzer;
import io.sluice.semantics.pairs.QuestionSignals;

/**
 * The L2 decision, shared by the cache and its evaluation. With the built-in verifier: candidates at or
 * above the level's cosine threshold, best first, each checked by the rules; the first that passes is
 * served. With a trained pair model: the closest candidates above the model's candidate floor are scored
 * and the most probable one is served when it reaches the level's calibrated operating point.
 */
public final class L2Matcher {

    private static final QuestionAnalyzer ANALYZER = new QuestionAnalyzer();

    /** A stored question with its unit vector, its signals (read once) and its labels. */
    public record Candidate<T>(String question, float[] vector, T value, QuestionSignals signals,
            PairFeatures.Labels labels) {

        public Candidate(String question, float[] vector, T value) {
            this(question, vector, value, ANALYZER.analyze(question), PairFeatures.Labels.NONE);
        }
    }

    /** A served match; {@code probability} is NaN when the built-in rules decided. */
    public record Match<T>(T value, String question, double similarity, double probability) {
    }

    /** What one match attempt did: the served match if any, and the verdict of the best refused one. */
    public record Outcome<T>(Optional<Match<T>> match, HitVerifier.Verdict rejected, long modelVersion) {
    }

    private final HitVerifier verifier;
    private final int maxCandidates;

    public L2Matcher(HitVerifier verifier) {
        this.verifier = verifier;
        this.maxCandidates = verifier.maxCandidates();
    }

    /**
     * @param level        the request's degradation level (L0..L3): picks the model's operating point
     * @param levelCosine  the level's cosine threshold (the built-in verifier's gate)
     * @param askedLabels  what is known of the new question (its intent), for the agreement features
     */
    public <T> Outcome<T> match(String question, float[] vector, String level, double levelCosine,
            PairFeatures.Labels askedLabels, List<Candidate<T>> candidates) {
        PairVerifier pairs = verifier.pairs();
        PairModel model = pairs.model();
        long version = pairs.version();
        double floor = pairs.candidateCosine(model, levelCosine);
        List<Scored<T>> above = new ArrayList<>();
        for (Candidate<T> candidate : candidates) {
            if (candidate.vector() == null || candidate.vector().length != vector.length) {
                continue;
            }
            double similarity = dot(vector, candidate.vector());
            if (similarity >= floor) {
                above.add(new Scored<>(candidate, similarity));
            }
        }
        if (above.isEmpty()) {
            return new Outcome<>(Optional.empty(), null, version);
        }
        above.sort(Comparator.comparingDouble((Scored<T> s) -> s.similarity()).reversed());
        QuestionSignals asked = pairs.analyzer().analyze(question);
        HitVerifier.Verdict firstRefusal = null;
        Match<T> best = null;
        int limit = model.builtIn() ? above.size() : Math.min(above.size(), maxCandidates);
        for (int i = 0; i < limit; i++) {
            Scored<T> s = above.get(i);
            PairVerifier.Decision decision = pairs.decide(model, level, levelCosine, s.similarity(),
                s.candidate().signals(), s.candidate().labels(), asked, askedLabels);
            if (decision.serve()) {
                Match<T> m = new Match<>(s.candidate().value(), s.candidate().question(), s.similarity(),
                    decision.probability());
                if (model.builtIn()) {
                    return new Outcome<>(Optional.of(m), firstRefusal, version);
                }
                if (best == null || m.probability() > best.probability()) {
                    best = m;
                }
            } else if (firstRefusal == null) {
                firstRefusal = HitVerifier.of(decision.verdict());
            }
        }
        return new Outcome<>(Optional.ofNullable(best), firstRefusal, version);
    }

    private record Scored<T>(Candidate<T> candidate, double similarity) {
    }

    /** Cosine of two unit vectors. */
    public static double dot(float[] a, float[] b) {
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
