package io.sluice.governance.permit;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;

/**
 * Cluster-wide concurrency permits, one leased semaphore per lane in Redis.
 *
 * <p>Leased (expirable) permits are the point: a crashed instance never releases what it took, and
 * the lease gives it back, so capacity cannot shrink for longer than one lease.
 */
public class ClusterPermits {

    private final RedissonClient redisson;
    private final PermitProperties properties;

    public ClusterPermits(RedissonClient redisson, PermitProperties properties) {
        this.redisson = redisson;
        this.properties = properties;
    }

    /**
     * Takes one permit of the lane, waiting at most the lane's bound.
     *
     * @throws SaturatedException when no permit frees up within the wait bound
     */
    public PermitLease acquire(String lane) {
        PermitProperties.Lane policy = properties.lane(lane);
        RPermitExpirableSemaphore semaphore = semaphore(lane, policy);
        String permitId;
        try {
            permitId = semaphore.tryAcquire(policy.maxWait().toMillis(), policy.lease().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SaturatedException(lane, policy.maxWait());
        }
        if (permitId == null) {
            throw new SaturatedException(lane, policy.maxWait());
        }
        return new PermitLease(lane, permitId, semaphore);
    }

    /** Permits of the lane currently held by anyone in the cluster. */
    public int inUse(String lane) {
        PermitProperties.Lane policy = properties.lane(lane);
        RPermitExpirableSemaphore semaphore = semaphore(lane, policy);
        return semaphore.getPermits() - semaphore.availablePermits();
    }

    public int size(String lane) {
        return properties.lane(lane).permits();
    }

    private RPermitExpirableSemaphore semaphore(String lane, PermitProperties.Lane policy) {
        RPermitExpirableSemaphore semaphore = redisson.getPermitExpirableSemaphore(properties.keyPrefix() + lane);
        // sized once per cluster; later resizing goes through the governance service
        semaphore.trySetPermits(policy.permits());
        return semaphore;
    }

    /** How long a permit lease lasts (for callers that must outlive it, such as streams). */
    public Duration lease(String lane) {
        return properties.lane(lane).lease();
    }
}
