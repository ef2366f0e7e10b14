package io.sluice.knowledge.chain;

import java.time.Clock;
import java.time.Duration;

/**
 * A small per-tier breaker: after {@code failureThreshold} consecutive failures (errors or
 * timeouts) the tier is skipped for {@code openFor}; then one trial call decides whether it closes.
 */
public class TierBreaker {

    public enum State { CLOSED, OPEN, HALF_OPEN }

    private final int failureThreshold;
    private final Duration openFor;
    private final Clock clock;
    private int consecutiveFailures;
    private long openUntil;
    private boolean trialInFlight;

    public TierBreaker(int failureThreshold, Duration openFor, Clock clock) {
        this.failureThreshold = Math.max(1, failureThreshold);
        this.openFor = openFor;
        this.clock = clock;
    }

    /** Whether a call may go through now; in half-open state only one trial at a time. */
    public synchronized boolean tryAcquire() {
        if (consecutiveFailures < failureThreshold) {
            return true;
        }
        if (clock.millis() < openUntil || trialInFlight) {
            return false;
        }
        trialInFlight = true;
        return true;
    }

    public synchronized void onSuccess() {
        consecutiveFailures = 0;
        trialInFlight = false;
    }

    public synchronized void onFailure() {
        trialInFlight = false;
        consecutiveFailures++;
        if (consecutiveFailures >= failureThreshold) {
            openUntil = clock.millis() + openFor.toMillis();
        }
    }

    public synchronized State state() {
        if (consecutiveFailures < failureThreshold) {
            return State.CLOSED;
        }
        return clock.millis() < openUntil ? State.OPEN : State.HALF_OPEN;
    }
}
