package io.sluice.semantics.pairs;

import java.util.List;
import java.util.Set;

/**
 * The features of one question pair the pair model weighs. Agreement features that may be unknown
 * (intent, FAQ entry) are +1 agree, -1 disagree, 0 unknown, so an unknown contributes nothing.
 * The order of {@link #NAMES} is part of a stored model: append, never reorder.
 */
public final class PairFeatures {

    public static final List<String> NAMES = List.of(
        "cosine",             // similarity of the two normalised embeddings
        "cosine_excess",      // max(0, cosine - 0.85) * 4: lets the model trust very close pairs more
        "lexical_overlap",    // Jaccard of CJK bigrams and Latin content words of the normalised texts
        "numbers_differ",     // numbers (in order, with units, Chinese numerals too) differ
        "numbers_shared",     // both name numbers and they agree
        "negation_differs",   // one negated, the other not (不能 / 无法 / can't ...)
        "direction_differs",  // both name a direction (A到B, from A to B) and not the same one
        "concepts_jaccard",   // agreement of the customer-service concepts named
        "concepts_differ",    // the concept sets are not equal
        "concepts_missing",   // how many concepts one names and the other does not (capped at 3, / 3)
        "entities_differ",    // literal entities (codes, Latin words in Chinese, names) differ
        "intent_agreement",   // +1 same intent, -1 different, 0 unknown
        "faq_agreement",      // +1 same FAQ entry, -1 different, 0 unknown
        "length_ratio",       // shorter / longer normalised length
        "rules_accept");      // the built-in rules accept the pair

    private PairFeatures() {
    }

    /** Optional labels of a question beside its text; null when unknown. */
    public record Labels(String intent, String faqKey) {
        public static final Labels NONE = new Labels(null, null);
    }

    public static double[] of(QuestionSignals a, QuestionSignals b, double cosine, Labels la, Labels lb) {
        double[] f = new double[NAMES.size()];
        f[0] = cosine;
        f[1] = Math.max(0, cosine - 0.85) * 4;
        f[2] = jaccard(a.grams(), b.grams());
        boolean numbersDiffer = !a.numbers().equals(b.numbers());
        f[3] = numbersDiffer ? 1 : 0;
        f[4] = !numbersDiffer && !a.numbers().isEmpty() ? 1 : 0;
        f[5] = a.negated() != b.negated() ? 1 : 0;
        f[6] = PairRules.directionsDisagree(a.directions(), b.directions()) ? 1 : 0;
        f[7] = a.concepts().isEmpty() && b.concepts().isEmpty() ? 1 : jaccard(a.concepts(), b.concepts());
        f[8] = a.concepts().equals(b.concepts()) ? 0 : 1;
        f[9] = Math.min(3, symmetricDifference(a.concepts(), b.concepts())) / 3.0;
        f[10] = a.entities().equals(b.entities()) ? 0 : 1;
        f[11] = agreement(la == null ? null : la.intent(), lb == null ? null : lb.intent());
        f[12] = agreement(la == null ? null : la.faqKey(), lb == null ? null : lb.faqKey());
        int la1 = a.normalized().length();
        int lb1 = b.normalized().length();
        f[13] = Math.max(la1, lb1) == 0 ? 1 : (double) Math.min(la1, lb1) / Math.max(la1, lb1);
        f[14] = PairRules.verify(a, b) == PairRules.Verdict.ACCEPTED ? 1 : 0;
        return f;
    }

    static double agreement(String a, String b) {
        if (a == null || b == null || a.isBlank() || b.isBlank()) {
            return 0;
        }
        return a.equals(b) ? 1 : -1;
    }

    static <T> double jaccard(Set<T> a, Set<T> b) {
        if (a.isEmpty() && b.isEmpty()) {
            return 0;
        }
        int inter = 0;
        for (T t : a) {
            if (b.contains(t)) {
                inter++;
            }
        }
        return (double) inter / (a.size() + b.size() - inter);
    }

    private static <T> int symmetricDifference(Set<T> a, Set<T> b) {
        int n = 0;
        for (T t : a) {
            n += b.contains(t) ? 0 : 1;
        }
        for (T t : b) {
            n += a.contains(t) ? 0 : 1;
        }
        return n;
    }
}
