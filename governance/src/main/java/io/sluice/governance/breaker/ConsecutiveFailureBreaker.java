package io.sluice.governance.breaker;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * The fast-path breaker: opens after N consecutive failures, stays open for a cool-down, then lets
 * exactly one probe through (half-open); the probe's success closes it, its failure re-opens it.
 * Checking it costs no I/O, so a caller skips a dead dependency in microseconds.
 */
public final class ConsecutiveFailureBreaker {

    public enum State { CLOSED, OPEN, HALF_OPEN }

    private final int threshold;
    private final long openNanos;
    private final LongSupplier clock;

    private State state = State.CLOSED;
    private int consecutiveFailures;
    private long openedAt;
    private boolean probeInFlight;

    public ConsecutiveFailureBreaker(int threshold, Duration openFor) {
        this(threshold, openFor, System::nanoTime);
    }

    ConsecutiveFailureBreaker(int threshold, Duration openFor, LongSupplier nanoClock) {
        if (threshold < 1) {
            throw new IllegalArgumentException("threshold must be at least 1");
        }
        this.threshold = threshold;
        this.openNanos = openFor.toNanos();
        this.clock = nanoClock;
    }

    /** Whether a call may go to the dependency now; in half-open, only the first caller (the probe) may. */
    public synchronized boolean tryAcquire() {
        if (state == State.OPEN && clock.getAsLong() - openedAt >= openNanos) {
            state = State.HALF_OPEN;
            probeInFlight = false;
        }
        return switch (state) {
            case CLOSED -> true;
            case OPEN -> false;
            case HALF_OPEN -> {
                if (probeInFlight) {
                    yield false;
                }
                probeInFlight = true;
                yield true;
            }
        };
    }

    public synchronized void onSuccess() {
        consecutiveFailures = 0;
        probeInFlight = false;
        state = State.CLOSED;
    }

    public synchronized void onFailure() {
        consecutiveFailures++;
        if (state == State.HALF_OPEN || consecutiveFailures >= threshold) {
            state = State.OPEN;
            openedAt = clock.getAsLong();
            probeInFlight = false;
        }
    }

    /** A call that was let through ended without telling anything about the dependency (e.g. refused by us). */
    public synchronized void onIgnored() {
        if (state == State.HALF_OPEN) {
            probeInFlight = false;
        }
    }

    public synchronized State state() {
        if (state == State.OPEN && clock.getAsLong() - openedAt >= openNanos) {
            return State.HALF_OPEN;
        }
        return state;
    }
}
