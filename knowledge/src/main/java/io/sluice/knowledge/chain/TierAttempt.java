package io.sluice.knowledge.chain;

/**
 * What happened at one tier of one retrieval.
 *
 * @param reason human-readable why (the error, the best score vs the threshold, ...)
 */
public record TierAttempt(String tier, Outcome outcome, String reason, double millis, int hits, double bestScore) {

    public enum Outcome {
        /** Returned passages above threshold: the chain stopped here. */
        ANSWERED,
        /** Nothing found. */
        EMPTY,
        /** Found passages, none above the threshold. */
        BELOW_THRESHOLD,
        TIMEOUT,
        ERROR,
        /** Not tried: its breaker is open after repeated failures. */
        BREAKER_OPEN,
        /** Not tried for another reason (e.g. no query embedding for a vector tier). */
        SKIPPED
    }

    @Override
    public String toString() {
        return tier + ": " + outcome + (reason == null || reason.isEmpty() ? "" : " (" + reason + ")")
            + String.format(" %.1f ms", millis);
    }
}
