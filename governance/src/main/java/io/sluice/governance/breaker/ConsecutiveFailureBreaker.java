package io.sluice.governance.breaker;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fast-path breaker: opens after N consecutive failures, stays open for a cool-down, then lets
 * exactly one probe through (half-open); the probe's success closes it, its failure re-opens it.
 * Checking it costs no I/O, so a caller skips a dead dependency in microseconds.
 */
public final class ConsecutiveFailureBreaker {

    private static final Logger log = LoggerFactory.getLogger(ConsecutiveFailureBreaker.class);

    public enum State { CLOSED, OPEN, HALF_OPEN }

    private final int threshold;
    private final long openNanos;
    private final LongSupplier clock;

    private State state = State.CLOSED;
    private int consecutiveFailures;
    private long openedAt;
    private boolean probeInFlight;
    private long openings;
    private final String name;

    public ConsecutiveFailureBreaker(int threshold, Duration openFor) {
        this("breaker", threshold, openFor, System::nanoTime);
    }

    /** @param name how the breaker is named when it logs an opening (e.g. the lane) */
    public ConsecutiveFailureBreaker(String name, int threshold, Duration openFor) {
        this(name, threshold, openFor, System::nanoTime);
    }

    ConsecutiveFailureBreaker(int threshold, Duration openFor, LongSupplier nanoClock) {
        this("breaker", threshold, openFor, nanoClock);
    }

    ConsecutiveFailureBreaker(String name, int threshold, Duration openFor, LongSupplier nanoClock) {
        this.name = name;
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
            if (state != State.OPEN) {
                openings++;
                log.warn("{} opened after {} consecutive failures (opening #{}); calls skip it for {} ms", name,
                    consecutiveFailures, openings, openNanos / 1_000_000);
            }
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

    /** How many times the breaker has opened (closed or half-open → open) since it was made. */
    public synchronized long openings() {
        return openings;
    }

    public synchronized State state() {
        if (state == State.OPEN && clock.getAsLong() - openedAt >= openNanos) {
            return State.HALF_OPEN;
        }
        return state;
    }
}
