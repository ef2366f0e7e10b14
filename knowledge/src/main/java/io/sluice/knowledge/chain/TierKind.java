package io.sluice.knowledge.chain;

/** What a tier matches with; thresholds in {@link RetrievalPlan} are per kind. */
public enum TierKind {
    VECTOR, LEXICAL, FAQ
}
