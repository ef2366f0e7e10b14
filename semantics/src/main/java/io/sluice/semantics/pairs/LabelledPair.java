package io.sluice.semantics.pairs;

/**
 * A question pair labelled by an operator: does one answer serve both? {@code a} is the cached (earlier)
 * question, {@code b} the new one. Intents and FAQ keys are optional; they feed the agreement features.
 *
 * @param source where it came from: {@code import}, {@code review} (a labelled served hit), ...
 */
public record LabelledPair(String a, String b, boolean same, String intentA, String intentB, String faqA, String faqB,
        String source) {

    public static LabelledPair of(String a, String b, boolean same) {
        return new LabelledPair(a, b, same, null, null, null, null, "import");
    }

    PairFeatures.Labels labelsA() {
        return new PairFeatures.Labels(intentA, faqA);
    }

    PairFeatures.Labels labelsB() {
        return new PairFeatures.Labels(intentB, faqB);
    }

    /** Which part of a split this pair falls in, stable across runs: 0..99 from its texts. */
    int bucket() {
        return Math.floorMod((a + "\u0001" + b).hashCode() * 31 + 7, 100);
    }
}
