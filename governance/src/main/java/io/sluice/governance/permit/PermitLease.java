package io.sluice.governance.permit;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.sluice.governance.cluster.RedisGuard;

import org.redisson.api.RPermitExpirableSemaphore;

/** One permit held by this instance; closing it releases the permit exactly once. */
public final class PermitLease implements AutoCloseable {

    private final String lane;
    private final String permitId;
    private final RPermitExpirableSemaphore semaphore;
    private final RedisGuard guard;
    private final Semaphore local;
    private final Semaphore gate;
    private final Parking parking;
    private final Consumer<String> release;
    private final AtomicBoolean released = new AtomicBoolean();
    private volatile boolean renewed;

    /** No permit needed (a provider without its own cap): closing and renewing it do nothing. */
    public static final PermitLease NONE = new PermitLease("none", null, null, null, null, null, null, null);

    /** Where a closing permit may be kept for this instance's next call instead of going back to Redis. */
    @FunctionalInterface
    interface Parking {
        /** True when the permit was kept; false when it must go back to Redis. */
        boolean park(String permitId);
    }

    private PermitLease(String lane, String permitId, RPermitExpirableSemaphore semaphore, RedisGuard guard, Semaphore local,
            Semaphore gate, Parking parking, Consumer<String> release) {
        this.lane = lane;
        this.permitId = permitId;
        this.semaphore = semaphore;
        this.guard = guard;
        this.local = local;
        this.gate = gate;
        this.parking = parking;
        this.release = release;
    }

    /**
     * {@code parking} null: the permit always goes back to Redis; {@code release} sends it there (and again if Redis
     * does not take it).
     */
    static PermitLease clustered(String lane, String permitId, RPermitExpirableSemaphore semaphore, RedisGuard guard,
            Semaphore gate, Parking parking, Consumer<String> release) {
        return new PermitLease(lane, permitId, semaphore, guard, null, gate, parking, release);
    }

    static PermitLease local(String lane, Semaphore semaphore, Semaphore gate) {
        return new PermitLease(lane, null, null, null, semaphore, gate, null, null);
    }

    public String lane() {
        return lane;
    }

    /** The permit's id in Redis (null for a local share or {@link #NONE}). */
    String permitId() {
        return permitId;
    }

    public boolean released() {
        return released.get();
    }

    /** Whether this permit is a local share taken while Redis was unreachable. */
    public boolean local() {
        return local != null;
    }

    /** Extends the lease (long streams renew while they run); false when it had already expired. */
    public boolean renew(Duration lease) {
        if (this == NONE) {
            return true;
        }
        if (released.get() || local != null) {
            return !released.get();
        }
        // its lease now ends a lease from now, not a reuse window later: it is never kept for reuse
        renewed = true;
        return guard.call(() -> semaphore.updateLeaseTime(permitId, lease.toMillis(), TimeUnit.MILLISECONDS), () -> false);
    }

    @Override
    public void close() {
        if (this != NONE && released.compareAndSet(false, true)) {
            try {
                if (local != null) {
                    local.release();
                } else if (parking != null && !renewed && parking.park(permitId)) {
                    // kept for this instance's next call: no Redis round trip now or then
                } else {
                    // not awaited: the caller returns at once; waiters are woken by Redis when it lands
                    release.accept(permitId);
                }
            } finally {
                gate.release();
            }
        }
    }
}
