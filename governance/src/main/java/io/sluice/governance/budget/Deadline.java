package io.sluice.governance.budget;

import java.time.Duration;

/** One total time budget for a call; retries, waits and fallbacks all spend from it. */
public final class Deadline {

    private final long deadlineNanos;

    private Deadline(long deadlineNanos) {
        this.deadlineNanos = deadlineNanos;
    }

    public static Deadline after(Duration budget) {
        return new Deadline(System.nanoTime() + budget.toNanos());
    }

    public Duration remaining() {
        return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
    }

    public boolean expired() {
        return deadlineNanos - System.nanoTime() <= 0;
    }

    /** The smaller of the remaining budget and the given bound. */
    public Duration cap(Duration bound) {
        Duration remaining = remaining();
        return bound.compareTo(remaining) < 0 ? bound : remaining;
    }
}
