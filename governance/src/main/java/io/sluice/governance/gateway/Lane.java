package io.sluice.governance.gateway;

/** Gateway lanes; each has its own permits, wait bound, budget and retry policy (see DESIGN, Lanes). */
public enum Lane {
    /** Chat answers: waits a short bound, else degrades; one immediate retry inside the budget. */
    INTERACTIVE,
    /** LLM-enhanced intent: small budget, breaker, skip to rules on failure. */
    INTENT,
    /** Queued work: waits (pacing), backoff 100/300/900 ms, generous budget. */
    BATCH;

    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
