package io.sluice.governance.permit;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import io.sluice.governance.cluster.RedisGuard;

import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;

/**
 * Cluster-wide concurrency permits, one leased semaphore per lane in Redis.
 *
 * <p>Leased (expirable) permits are the point: a crashed instance never releases what it took, and
 * the lease gives it back, so capacity cannot shrink for longer than one lease.
 *
 * <p>When Redis is unreachable each instance falls back to a local semaphore holding its share of
 * the lane (permits ÷ known instances, at least 1): calls still flow, the provider stays protected.
 */
public class ClusterPermits {

    private final RedissonClient redisson;
    private final PermitProperties properties;
    private final RedisGuard guard;
    private final IntSupplier knownInstances;
    private final Map<String, RPermitExpirableSemaphore> semaphores = new ConcurrentHashMap<>();
    private final Map<String, LocalShare> localShares = new ConcurrentHashMap<>();
    private final Map<String, ResizableGate> gates = new ConcurrentHashMap<>();
    private final Map<String, CachedSize> sizes = new ConcurrentHashMap<>();
    private volatile long initialisedAtRecovery = -1;

    /** How long a lane's cluster size read from Redis is trusted before it is read again. */
    private static final long SIZE_TTL_NANOS = TimeUnit.SECONDS.toNanos(1);

    public ClusterPermits(RedissonClient redisson, PermitProperties properties) {
        this(redisson, properties, new RedisGuard(Duration.ofSeconds(2)), () -> 1);
    }

    public ClusterPermits(RedissonClient redisson, PermitProperties properties, RedisGuard guard, IntSupplier knownInstances) {
        this.redisson = redisson;
        this.properties = properties;
        this.guard = guard;
        this.knownInstances = knownInstances;
    }

    /**
     * Takes one permit of the lane, waiting at most the lane's bound.
     *
     * @throws SaturatedException when no permit frees up within the wait bound
     */
    public PermitLease acquire(String lane) {
        Duration maxWait = properties.lane(lane).maxWait();
        return tryAcquire(lane, maxWait).orElseThrow(() -> new SaturatedException(lane, maxWait));
    }

    /** Takes one permit of the lane, waiting at most {@code wait}; empty when none freed up in time. */
    public Optional<PermitLease> tryAcquire(String lane, Duration wait) {
        PermitProperties.Lane policy = properties.lane(lane);
        long started = System.nanoTime();
        // An instance never holds more than the lane's cluster size, so waiters queue locally first
        // (fair, no I/O) and at most that many contend in Redis: no thundering herd on each release.
        // the gate follows the lane's cluster size, so a resize from the console takes effect here too
        ResizableGate gate = gates.computeIfAbsent(lane, l -> new ResizableGate(policy.permits()));
        gate.resize(size(lane));
        try {
            if (!gate.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                return Optional.empty();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        long remainingMillis = Math.max(0, (wait.toNanos() - (System.nanoTime() - started)) / 1_000_000);
        Optional<PermitLease> lease;
        try {
            lease = guard.call(() -> {
                RPermitExpirableSemaphore semaphore = semaphore(lane, policy);
                String permitId;
                try {
                    permitId = semaphore.tryAcquire(remainingMillis, policy.lease().toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Optional.<PermitLease>empty();
                }
                if (permitId == null) {
                    // a Redis that restarted empty has an unsized semaphore: size it again (no-op otherwise)
                    semaphore.trySetPermits(policy.permits());
                    return Optional.<PermitLease>empty();
                }
                return Optional.of(PermitLease.clustered(lane, permitId, semaphore, guard, gate));
            }, () -> localShare(lane, policy).tryAcquire(lane, Duration.ofMillis(remainingMillis), gate));
        } catch (RuntimeException e) {
            gate.release();
            throw e;
        }
        if (lease.isEmpty()) {
            gate.release();
        }
        return lease;
    }

    /** Permits of the lane currently held by anyone in the cluster (this instance's share when Redis is down). */
    public int inUse(String lane) {
        PermitProperties.Lane policy = properties.lane(lane);
        return guard.call(() -> {
            RPermitExpirableSemaphore semaphore = semaphore(lane, policy);
            return semaphore.getPermits() - semaphore.availablePermits();
        }, () -> localShare(lane, policy).inUse());
    }

    /** The lane's cluster-wide size as Redis holds it (after any resize); the configured size when Redis is down. */
    public int size(String lane) {
        PermitProperties.Lane policy = properties.lane(lane);
        long now = System.nanoTime();
        CachedSize cached = sizes.get(lane);
        if (cached != null && now - cached.readAt < SIZE_TTL_NANOS) {
            return cached.size;
        }
        int size = guard.call(() -> semaphore(lane, policy).getPermits(), policy::permits);
        int effective = size > 0 ? size : policy.permits();
        sizes.put(lane, new CachedSize(effective, now));
        return effective;
    }

    /** Resizes a lane cluster-wide (the console calls this); permits in use stay valid. */
    public void resize(String lane, int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("a lane needs at least one permit");
        }
        PermitProperties.Lane policy = properties.lane(lane);
        semaphore(lane, policy).setPermits(permits);
        sizes.remove(lane);
    }

    private record CachedSize(int size, long readAt) {
    }

    /** A local fair semaphore whose number of permits can follow the cluster size. */
    static final class ResizableGate extends Semaphore {

        private int size;

        ResizableGate(int size) {
            super(size, true);
            this.size = size;
        }

        synchronized void resize(int newSize) {
            if (newSize > size) {
                release(newSize - size);
            } else if (newSize < size) {
                reducePermits(size - newSize);
            }
            size = newSize;
        }
    }

    private RPermitExpirableSemaphore semaphore(String lane, PermitProperties.Lane policy) {
        long recoveries = guard.recoveries();
        if (recoveries != initialisedAtRecovery) {
            // after Redis came back (possibly empty), size the semaphores again
            semaphores.clear();
            initialisedAtRecovery = recoveries;
        }
        return semaphores.computeIfAbsent(lane, l -> {
            RPermitExpirableSemaphore semaphore = redisson.getPermitExpirableSemaphore(properties.keyPrefix() + l);
            // sized once per cluster; later resizing goes through resize()
            semaphore.trySetPermits(policy.permits());
            return semaphore;
        });
    }

    private LocalShare localShare(String lane, PermitProperties.Lane policy) {
        int share = Math.max(1, policy.permits() / Math.max(1, knownInstances.getAsInt()));
        return localShares.compute(lane, (l, current) -> current != null && current.size == share ? current : new LocalShare(share));
    }

    /** How long a permit lease lasts (for callers that must outlive it, such as streams). */
    public Duration lease(String lane) {
        return properties.lane(lane).lease();
    }

    private static final class LocalShare {
        final int size;
        final Semaphore semaphore;

        LocalShare(int size) {
            this.size = size;
            this.semaphore = new Semaphore(size, true);
        }

        Optional<PermitLease> tryAcquire(String lane, Duration wait, Semaphore gate) {
            try {
                if (semaphore.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                    return Optional.of(PermitLease.local(lane, semaphore, gate));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Optional.empty();
        }

        int inUse() {
            return size - semaphore.availablePermits();
        }
    }
}
