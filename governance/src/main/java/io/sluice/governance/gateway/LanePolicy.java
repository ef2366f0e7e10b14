package io.sluice.governance.gateway;

import java.time.Duration;

import io.sluice.governance.breaker.ConsecutiveFailureBreaker;
import io.sluice.governance.budget.RetryPolicy;

/**
 * Everything that governs one lane, resolved from configuration.
 *
 * @param lane          the lane
 * @param route         the model key calls start with
 * @param budget        default total time budget per call
 * @param retry         retries per model and their backoff
 * @param permitWait    how long a call may wait for a cluster permit (sluice.permits.lanes.*.max-wait)
 * @param rateLimitWait how long a call may wait out a 429 cool-down or a spent token bucket
 * @param breaker       the fast-path breaker, or null
 */
public record LanePolicy(Lane lane, String route, Duration budget, RetryPolicy retry, Duration permitWait,
        Duration rateLimitWait, ConsecutiveFailureBreaker breaker) {
}
