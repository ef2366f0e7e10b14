package io.sluice.governance.sentinel;

import java.time.Duration;

/**
 * Sentinel rules of one lane, applied to each of its {@code llm:<lane>:<model>} resources.
 *
 * @param maxThreads   THREAD-grade flow rule: calls in flight on this instance (the local guard)
 * @param qps          QPS flow rule on this instance (0 = none)
 * @param slowCall     a call slower than this counts as slow
 * @param slowRatio    slow-call ratio that opens the breaker (0 = no slow-call rule)
 * @param errorRatio   error ratio that opens the breaker (0 = no error-ratio rule)
 * @param minRequests  calls in the stat interval before a ratio can trip
 * @param statInterval the window the ratios are measured over
 * @param openFor      how long the breaker stays open before a half-open probe
 */
public record LaneRules(int maxThreads, double qps, Duration slowCall, double slowRatio, double errorRatio,
        int minRequests, Duration statInterval, Duration openFor) {

    public LaneRules {
        if (maxThreads < 1) {
            throw new IllegalArgumentException("maxThreads must be at least 1, was " + maxThreads);
        }
        if (qps < 0) {
            throw new IllegalArgumentException("qps must not be negative, was " + qps);
        }
        if (slowRatio < 0 || slowRatio > 1 || errorRatio < 0 || errorRatio > 1) {
            throw new IllegalArgumentException("slowRatio and errorRatio must be within [0, 1]");
        }
        if (minRequests < 1) {
            throw new IllegalArgumentException("minRequests must be at least 1, was " + minRequests);
        }
        slowCall = slowCall == null ? Duration.ofSeconds(5) : slowCall;
        statInterval = statInterval == null ? Duration.ofSeconds(10) : statInterval;
        openFor = openFor == null ? Duration.ofSeconds(30) : openFor;
        if (openFor.toSeconds() < 1) {
            throw new IllegalArgumentException("openFor must be at least 1 s (Sentinel counts it in seconds)");
        }
    }

    public static LaneRules defaults(int maxThreads) {
        return new LaneRules(maxThreads, 0, Duration.ofSeconds(5), 0.5, 0.5, 10, Duration.ofSeconds(10), Duration.ofSeconds(30));
    }
}
