package io.sluice.semantics.pairs;

import java.util.List;

/**
 * The built-in verification, used when no pair model was trained on the operator's data: two questions
 * agree when their numbers (in order, with units), negation, direction and customer-service concepts
 * agree, and neither is the other with one content word swapped ("turn on / off roaming"). Deliberately
 * conservative: it refuses a hit on any disagreement.
 */
public final class PairRules {

    /** Why a candidate was refused (metric tag), or ACCEPTED. */
    public enum Verdict { ACCEPTED, NUMBERS, NEGATION, DIRECTION, TERMS, MODEL }

    private PairRules() {
    }

    public static Verdict verify(QuestionSignals cached, QuestionSignals asked) {
        if (!cached.numbers().equals(asked.numbers())) {
            return Verdict.NUMBERS;
        }
        if (cached.negated() != asked.negated()) {
            return Verdict.NEGATION;
        }
        if (directionsDisagree(cached.directions(), asked.directions())) {
            return Verdict.DIRECTION;
        }
        if (!cached.concepts().equals(asked.concepts())
                || PairFeatures.substitution(cached.normalized(), asked.normalized())) {
            return Verdict.TERMS;
        }
        return Verdict.ACCEPTED;
    }

    /**
     * Both name a direction and they are not the same trip: endpoints compared loosely (a place read
     * with a neighbouring character, "从上海" / "上海", still matches), so reversed or changed endpoints
     * disagree.
     */
    static boolean directionsDisagree(List<String> a, List<String> b) {
        if (a.isEmpty() || b.isEmpty()) {
            return false;
        }
        for (String da : a) {
            boolean found = false;
            for (String db : b) {
                if (sameTrip(da, db)) {
                    found = true;
                    break;
                }
            }
            if (!found) {
                return true;
            }
        }
        return false;
    }

    private static boolean sameTrip(String a, String b) {
        String[] x = a.split(">", 2);
        String[] y = b.split(">", 2);
        return (x[0].endsWith(y[0]) || y[0].endsWith(x[0])) && (x[1].startsWith(y[1]) || y[1].startsWith(x[1]));
    }
}
