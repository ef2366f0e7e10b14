package io.sluice.knowledge.chain;

import java.util.List;
import java.util.stream.Collectors;

/**
 * The chain's answer: passages from the first tier that had good enough ones, which tier that was,
 * and the trace of every tier tried and why the chain moved on.
 *
 * @param answeredBy tier name, or null when no tier found anything good enough
 */
public record RetrievalResult(String query, List<Passage> passages, String answeredBy, List<TierAttempt> trace,
        double embedMillis, double totalMillis) {

    public RetrievalResult {
        passages = List.copyOf(passages);
        trace = List.copyOf(trace);
    }

    public boolean found() {
        return !passages.isEmpty();
    }

    /**
     * True when a tier that should have been asked was not heard: it timed out, failed, had its breaker open,
     * or (a vector tier) got no query embedding. Such a result says what the knowledge could give right then,
     * not what it holds, so it is not kept for the next time the question comes.
     */
    public boolean degraded() {
        return trace.stream().anyMatch(a -> switch (a.outcome()) {
            case TIMEOUT, ERROR, BREAKER_OPEN -> true;
            case SKIPPED -> a.reason() != null && a.reason().startsWith(RetrievalChain.NO_EMBEDDING);
            default -> false;
        });
    }

    /** e.g. "vector:pgvector TIMEOUT → bm25 ANSWERED". */
    public String path() {
        return trace.stream().map(a -> a.tier() + " " + a.outcome()).collect(Collectors.joining(" → "));
    }
}
