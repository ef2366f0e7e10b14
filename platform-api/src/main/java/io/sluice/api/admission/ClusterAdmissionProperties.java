package io.sluice.api.admission;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The cluster-wide admission order ({@code sluice.chat.admission.cluster.*}), see {@link RedisClusterOrder}.
 *
 * @param enabled         order waiters across instances in Redis (false = each instance alone)
 * @param keyPrefix       prefix of the order's Redis keys (instances that share it form one cluster)
 * @param capacity        answers in flight the whole cluster may have; 0 = the interactive lane's
 *                        cluster permits (what the gateway enforces anyway)
 * @param pollInterval    how often an instance with waiters asks again (a slot freed elsewhere is seen
 *                        within this)
 * @param lease           an instance silent this long (crashed) no longer counts: its slots and waiters
 *                        are dropped; instances with answers in flight beat at a third of it
 * @param redisRetryAfter after a Redis failure, the local order alone for this long, then Redis again
 */
@ConfigurationProperties("sluice.chat.admission.cluster")
public record ClusterAdmissionProperties(
        @DefaultValue("true") boolean enabled,
        @DefaultValue("sluice:admission:") String keyPrefix,
        @DefaultValue("0") int capacity,
        @DefaultValue("20ms") Duration pollInterval,
        @DefaultValue("3s") Duration lease,
        @DefaultValue("5s") Duration redisRetryAfter) {

    public ClusterAdmissionProperties {
        if (capacity < 0) {
            throw new IllegalArgumentException("sluice.chat.admission.cluster.capacity must not be negative");
        }
        if (pollInterval == null || pollInterval.isNegative() || pollInterval.isZero()) {
            throw new IllegalArgumentException("sluice.chat.admission.cluster.poll-interval must be positive");
        }
        if (lease == null || lease.compareTo(pollInterval.multipliedBy(3)) < 0) {
            throw new IllegalArgumentException("sluice.chat.admission.cluster.lease must be at least three poll intervals");
        }
        if (keyPrefix == null || keyPrefix.isBlank()) {
            throw new IllegalArgumentException("sluice.chat.admission.cluster.key-prefix must not be blank");
        }
    }

    public static ClusterAdmissionProperties defaults(String keyPrefix) {
        return new ClusterAdmissionProperties(true, keyPrefix, 0, Duration.ofMillis(20), Duration.ofSeconds(3),
            Duration.ofSeconds(5));
    }
}
