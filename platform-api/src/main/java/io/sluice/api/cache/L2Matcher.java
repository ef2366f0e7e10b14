package io.sluice.api.cache;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The L2 decision, shared by the cache and its evaluation: candidates at or above the level's
 * cosine threshold, best first, each verified ({@link HitVerifier}); the first that passes is served.
 */
public final class L2Matcher {

    /** A stored question with its unit vector. */
    public record Candidate<T>(String question, float[] vector, T value) {
    }

    public record Match<T>(T value, double similarity) {
    }

    /** What one match attempt did: the served match if any, and the verdict of the best refused one. */
    public record Outcome<T>(Optional<Match<T>> match, HitVerifier.Verdict rejected) {
    }

    private final HitVerifier verifier;

    public L2Matcher(HitVerifier verifier) {
        this.verifier = verifier;
    }

    public <T> Outcome<T> match(String question, float[] vector, double threshold, List<Candidate<T>> candidates) {
        List<Match<Candidate<T>>> above = new ArrayList<>();
        for (Candidate<T> candidate : candidates) {
            if (candidate.vector() == null || candidate.vector().length != vector.length) {
                continue;
            }
            double similarity = dot(vector, candidate.vector());
            if (similarity >= threshold) {
                above.add(new Match<>(candidate, similarity));
            }
        }
        above.sort(Comparator.comparingDouble((Match<Candidate<T>> m) -> m.similarity()).reversed());
        HitVerifier.Verdict firstRefusal = null;
        for (Match<Candidate<T>> m : above) {
            HitVerifier.Verdict verdict = verifier.verify(m.value().question(), question);
            if (verdict == HitVerifier.Verdict.ACCEPTED) {
                return new Outcome<>(Optional.of(new Match<>(m.value().value(), m.similarity())), firstRefusal);
            }
            if (firstRefusal == null) {
                firstRefusal = verdict;
            }
        }
        return new Outcome<>(Optional.empty(), firstRefusal);
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
