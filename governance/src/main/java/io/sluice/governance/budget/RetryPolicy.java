package io.sluice.governance.budget;

import java.time.Duration;
import java.util.List;

/**
 * How often one model is retried within a call, and how long to wait before each retry.
 * Interactive and intent lanes: one immediate retry; batch: backoff 100/300/900 ms.
 *
 * @param retries retries after the first attempt (per model; a fallback model never restarts them)
 * @param backoff wait before retry i is {@code backoff[min(i, size-1)]}; empty = immediate
 */
public record RetryPolicy(int retries, List<Duration> backoff) {

    public RetryPolicy {
        if (retries < 0) {
            throw new IllegalArgumentException("retries must not be negative");
        }
        backoff = backoff == null ? List.of() : List.copyOf(backoff);
    }

    public static RetryPolicy immediate(int retries) {
        return new RetryPolicy(retries, List.of());
    }

    /** The wait before the given retry (0-based). */
    public Duration backoffBefore(int retry) {
        return backoff.isEmpty() ? Duration.ZERO : backoff.get(Math.min(retry, backoff.size() - 1));
    }
}
