package io.sluice.knowledge.chain;

/** A query as tiers see it: the text, its embedding (null if embedding failed) and the filter. */
public record TierQuery(String text, float[] vector, SearchFilter filter) {
}
