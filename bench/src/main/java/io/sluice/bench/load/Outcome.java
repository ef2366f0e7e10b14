package io.sluice.bench.load;

/**
 * How one request ended, as the invariants see it.
 *
 * @param kind        the class of ending
 * @param tier        F4..F0 for an answer (null otherwise)
 * @param priority    S / A / B for an answer
 * @param cached      served from the semantic cache
 * @param queueWaitMs the platform's own admission wait for an answer
 * @param latencyNs   from the request's intended start (open loop: includes any send delay) to its end
 * @param status      HTTP status (0 = none)
 * @param detail      what was wrong, for violations
 */
record Outcome(Kind kind, String tier, String priority, boolean cached, long queueWaitMs, long latencyNs, int status,
        String detail) {

    enum Kind {
        /** 200 with a tier, within the deadline. */
        ANSWERED,
        /** 429 with Retry-After, within the deadline. */
        REJECTED,
        /** 503 with Retry-After, within the deadline. */
        UNAVAILABLE,
        /** the connection broke after the request was sent to an instance that was killed on purpose. */
        LOST_WITH_KILLED_INSTANCE,
        /** anything else: a 5xx, a 429/503 without Retry-After, an answer without a tier, late, no answer. */
        VIOLATION
    }

    boolean f4() {
        return kind == Kind.ANSWERED && "F4".equals(tier);
    }
}
