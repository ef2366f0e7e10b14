package io.sluice.api.ingress;

import java.time.Duration;

import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.cluster.SharedSetting;

import org.redisson.api.RedissonClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-user token bucket's limits by client tier, changeable at runtime (the console) and shared by
 * the cluster through a {@link SharedSetting}: a change is validated, applied here, stored in Redis and
 * announced, so every instance's {@link UserTokenBucket} uses it within moments. Starts from
 * {@code sluice.ingress.rate.user}.
 */
public final class UserLimits implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(UserLimits.class);

    public static final double MAX_CAPACITY = 100_000;
    public static final double MAX_REFILL_PER_SECOND = 10_000;
    public static final double MAX_VIP_MULTIPLIER = 100;

    /**
     * @param capacity        a STANDARD user's burst (tokens)
     * @param refillPerSecond a STANDARD user's tokens per second
     * @param vipMultiplier   a VIP client's users get this many times capacity and rate
     */
    public record Limits(double capacity, double refillPerSecond, double vipMultiplier) {

        /** @throws IllegalArgumentException naming the offending value */
        public Limits {
            check(capacity, 1, MAX_CAPACITY, "capacity");
            check(refillPerSecond, 0.001, MAX_REFILL_PER_SECOND, "refill per second");
            check(vipMultiplier, 1, MAX_VIP_MULTIPLIER, "VIP multiplier");
        }

        private static void check(double value, double min, double max, String name) {
            if (Double.isNaN(value) || value < min || value > max) {
                throw new IllegalArgumentException(name + " must be between " + fmt(min) + " and " + fmt(max)
                    + ", was " + fmt(value));
            }
        }

        private static String fmt(double d) {
            return d == Math.rint(d) && !Double.isInfinite(d) ? Long.toString((long) d) : Double.toString(d);
        }

        String encode() {
            return capacity + "," + refillPerSecond + "," + vipMultiplier;
        }

        static Limits decode(String raw) {
            String[] parts = raw.split(",");
            if (parts.length != 3) {
                throw new IllegalArgumentException("expected capacity,refill,vip");
            }
            return new Limits(Double.parseDouble(parts[0]), Double.parseDouble(parts[1]), Double.parseDouble(parts[2]));
        }

        @Override
        public String toString() {
            return "capacity=" + fmt(capacity) + ", refill=" + fmt(refillPerSecond) + "/s, vip×" + fmt(vipMultiplier);
        }
    }

    private final Limits configured;
    private final SharedSetting shared;
    private volatile Limits current;

    public UserLimits(RedissonClient redisson, RateLimitProperties.User properties) {
        this.configured = new Limits(properties.capacity(), properties.refillPerSecond(), properties.vipMultiplier());
        this.current = configured;
        // the key sits beside the buckets' prefix, never under it: no user's bucket can collide with it
        String key = properties.keyPrefix().replaceAll(":+$", "") + "-limits";
        this.shared = new SharedSetting(redisson, key, new RedisGuard(Duration.ofSeconds(5)), this::applyAnnounced);
        shared.stored().ifPresent(this::applyAnnounced);
    }

    /** The limits in force on this instance. */
    public Limits current() {
        return current;
    }

    public Limits configured() {
        return configured;
    }

    /** Applies new limits here and on every instance; false when Redis was unreachable (this instance only). */
    public boolean replace(Limits next) {
        current = next;
        return shared.publish(next.encode());
    }

    /** Back to the configured limits, cluster-wide; false when Redis was unreachable (this instance only). */
    public boolean resetToConfigured() {
        current = configured;
        return shared.publish(null);
    }

    private void applyAnnounced(String raw) {
        if (raw == null || raw.isBlank()) {
            current = configured;
            return;
        }
        try {
            current = Limits.decode(raw);
        } catch (IllegalArgumentException e) {
            log.warn("ingress: ignored unreadable per-user limits from the cluster '{}': {}", raw, e.getMessage());
        }
    }

    @Override
    public void close() {
        shared.close();
    }
}
