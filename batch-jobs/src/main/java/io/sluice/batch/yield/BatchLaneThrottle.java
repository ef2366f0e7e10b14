package io.sluice.batch.yield;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * This instance's limit on batch-lane LLM calls in flight, which yields to online traffic.
 *
 * <p>Every {@code sample-interval} the interactive occupancy is read ({@link InteractiveOccupancy}).
 * Above the high-water mark (default 0.85) the limit halves, down to the floor; below the low-water mark
 * (default 0.5) it grows by one per sample, up to the ceiling; in between it holds (hysteresis). Halving
 * reaches the floor from a ceiling of 8 in three samples (under a second at 250 ms). Calls already in
 * flight finish; new ones wait until in-flight drops below the limit.
 */
public class BatchLaneThrottle {

    private final int floor;
    private final int ceiling;
    private final double highWater;
    private final double lowWater;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition slotFreed = lock.newCondition();
    private int limit;
    private int inFlight;
    private volatile double lastOccupancy = -1;

    public BatchLaneThrottle(int floor, int ceiling, double highWater, double lowWater) {
        if (floor < 1 || ceiling < floor) {
            throw new IllegalArgumentException("need 1 <= floor <= ceiling");
        }
        if (!(lowWater < highWater)) {
            throw new IllegalArgumentException("low-water must be below high-water");
        }
        this.floor = floor;
        this.ceiling = ceiling;
        this.highWater = highWater;
        this.lowWater = lowWater;
        this.limit = ceiling;
    }

    /** Applies one occupancy sample and returns the new limit. */
    public int adjust(double occupancy) {
        lastOccupancy = occupancy;
        lock.lock();
        try {
            if (occupancy < 0 || Double.isNaN(occupancy)) {
                return limit;
            }
            if (occupancy > highWater) {
                limit = Math.max(floor, limit / 2);
            } else if (occupancy < lowWater && limit < ceiling) {
                limit++;
                slotFreed.signalAll();
            }
            return limit;
        } finally {
            lock.unlock();
        }
    }

    /** Waits for a slot; returns false if none freed within the timeout. */
    public boolean acquire(long timeout, TimeUnit unit) throws InterruptedException {
        long remaining = unit.toNanos(timeout);
        lock.lockInterruptibly();
        try {
            while (inFlight >= limit) {
                if (remaining <= 0) {
                    return false;
                }
                remaining = slotFreed.awaitNanos(remaining);
            }
            inFlight++;
            return true;
        } finally {
            lock.unlock();
        }
    }

    public void release() {
        lock.lock();
        try {
            if (inFlight > 0) {
                inFlight--;
            }
            slotFreed.signal();
        } finally {
            lock.unlock();
        }
    }

    public int limit() {
        lock.lock();
        try {
            return limit;
        } finally {
            lock.unlock();
        }
    }

    public int inFlight() {
        lock.lock();
        try {
            return inFlight;
        } finally {
            lock.unlock();
        }
    }

    public int floor() {
        return floor;
    }

    public int ceiling() {
        return ceiling;
    }

    public double lastOccupancy() {
        return lastOccupancy;
    }
}
