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

    /** e.g. "vector:pgvector TIMEOUT → bm25 ANSWERED". */
    public String path() {
        return trace.stream().map(a -> a.tier() + " " + a.outcome()).collect(Collectors.joining(" → "));
    }
}
