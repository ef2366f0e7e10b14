package io.sluice.governance.permit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One lane's cluster permits that this instance holds in Redis but no call is using: the next call on
 * this instance takes one without a Redis round trip.
 *
 * <p>Each permit was leased for the lane's lease plus the reuse window, and is only handed out again
 * while its reuse window lasts, so a call always starts with at least one full lease left: exactly what
 * a fresh acquire gives it. After the window it goes back to Redis. Newest first, so a quiet instance
 * keeps using the same few permits and lets the others age out; one idle longer than the linger goes back.
 */
final class IdlePermits {

    /**
     * A permit id in Redis, the last moment ({@link System#nanoTime}) it may be handed out again, and when it
     * was parked.
     */
    record Idle(String permitId, long reusableUntil, long parkedAt) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Idle> idle = new ArrayDeque<>();
    private long epoch;

    /**
     * A permit to reuse, or null. Permits past their window are moved to {@code expired} for the
     * caller to release; none of it is kept when Redis recovered since they were parked ({@code epoch}).
     */
    Idle take(long now, long epoch, List<Idle> expired) {
        lock.lock();
        try {
            if (epoch != this.epoch) {
                // Redis came back (perhaps empty): these ids may name nothing, so they are not permits any more
                idle.clear();
                this.epoch = epoch;
                return null;
            }
            Idle permit;
            while ((permit = idle.pollFirst()) != null) {
                if (now - permit.reusableUntil() < 0) {
                    return permit;
                }
                expired.add(permit);
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    /** Parks a released permit; false when it is past its window or {@code cap} permits already wait. */
    boolean park(Idle permit, long now, long epoch, int cap) {
        if (now - permit.reusableUntil() >= 0) {
            return false;
        }
        lock.lock();
        try {
            if (epoch != this.epoch || idle.size() >= cap) {
                return false;
            }
            idle.addFirst(permit);
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Removes and returns the permits past their window or idle for {@code linger} nanoseconds, and any beyond
     * {@code cap} (a lane shrunk).
     */
    List<Idle> expire(long now, long linger, int cap) {
        List<Idle> out = new ArrayList<>();
        lock.lock();
        try {
            for (Iterator<Idle> it = idle.iterator(); it.hasNext();) {
                Idle permit = it.next();
                if (now - permit.reusableUntil() >= 0 || now - permit.parkedAt() >= linger) {
                    it.remove();
                    out.add(permit);
                }
            }
            while (idle.size() > cap) {
                out.add(idle.pollLast());
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** Removes and returns all. */
    List<Idle> drain() {
        lock.lock();
        try {
            List<Idle> out = new ArrayList<>(idle);
            idle.clear();
            return out;
        } finally {
            lock.unlock();
        }
    }

    int size() {
        lock.lock();
        try {
            return idle.size();
        } finally {
            lock.unlock();
        }
    }
}
