package io.sluice.api.ingress;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Ingress rate limits ({@code sluice.ingress.rate.*}).
 *
 * @param user   the per-user token bucket in Redis
 * @param global the adaptive global limiter (cluster-wide in Redis, a per-instance share when Redis is down)
 */
@ConfigurationProperties("sluice.ingress.rate")
public record RateLimitProperties(@DefaultValue User user, @DefaultValue Global global,
        @DefaultValue ClientShare client, @DefaultValue LlmCalls llmCalls) {

    @org.springframework.boot.context.properties.bind.ConstructorBinding
    public RateLimitProperties {
        llmCalls = llmCalls == null ? LlmCalls.defaults() : llmCalls;
    }

    public RateLimitProperties(User user, Global global, ClientShare client) {
        this(user, global, client, LlmCalls.defaults());
    }

    /**
     * How many gateway calls one end user's requests may cause in a sliding window (each tier attempt of an
     * answer counts, not each request); past it the user's answers come without the LLM (F1) and /v1 is 429.
     *
     * @param enabled       false = not counted
     * @param limit         LLM calls per window for a standard end user
     * @param window        the sliding window
     * @param vipMultiplier a VIP end user (or a VIP client's user) may make this many times as many
     * @param keyPrefix     Redis key prefix of the per-user logs
     */
    public record LlmCalls(@DefaultValue("true") boolean enabled, @DefaultValue("30") int limit,
            @DefaultValue("1m") Duration window, @DefaultValue("3") double vipMultiplier,
            @DefaultValue("sluice:llm-calls:") String keyPrefix) {

        public LlmCalls {
            if (limit < 1 || window == null || window.toMillis() < 1 || vipMultiplier < 1) {
                throw new IllegalArgumentException("sluice.ingress.rate.llm-calls: limit >= 1, a positive window and "
                    + "vip-multiplier >= 1 are needed");
            }
        }

        public static LlmCalls defaults() {
            return new LlmCalls(true, 30, Duration.ofMinutes(1), 3, "sluice:llm-calls:");
        }
    }

    /**
     * Each API client's share of the global rate, so no client can starve the others: while n clients are
     * active, each may use at most max(rate / n, floor) requests/s (whatever userIds it spreads them over).
     *
     * @param floor  requests/s every active client may always use (when the fair share is smaller)
     * @param window a client counts as active this long after its last request
     */
    public record ClientShare(@DefaultValue("5") double floor, @DefaultValue("5s") Duration window) {
    }

    /**
     * @param capacity        bucket size (burst) of a standard user
     * @param refillPerSecond tokens added per second for a standard user
     * @param vipMultiplier   VIP clients' users get this many times the rate and capacity
     * @param initialFraction a new user's bucket starts this full (0.5 = half capacity), capped by newUserCapacity
     * @param keyPrefix       Redis key prefix of the buckets
     * @param redisRetryAfter after a Redis failure, use the local fallback this long before trying again
     * @param newUserCapacity a user never answered yet has a bucket of at most this many tokens (× VIP); it fills
     *                        to {@code capacity} only after the user's first successful answer
     * @param answeredTtl     how long "answered before" is remembered after the user's last answer
     * @param takeAhead       a user who sent many requests to this instance in the last such interval has tokens
     *                        for about as many taken in one round trip and spent here for at most this long, but
     *                        only from the part of the bucket above half its capacity (0 = a round trip per request)
     */
    public record User(@DefaultValue("20") double capacity, @DefaultValue("1") double refillPerSecond,
            @DefaultValue("3") double vipMultiplier, @DefaultValue("0.5") double initialFraction,
            @DefaultValue("sluice:bucket:") String keyPrefix, @DefaultValue("5s") Duration redisRetryAfter,
            @DefaultValue("3") double newUserCapacity, @DefaultValue("30d") Duration answeredTtl,
            @DefaultValue("5s") Duration takeAhead) {

        @org.springframework.boot.context.properties.bind.ConstructorBinding
        public User {
            if (newUserCapacity < 1 || answeredTtl == null || answeredTtl.toMillis() < 1) {
                throw new IllegalArgumentException("sluice.ingress.rate.user: new-user-capacity >= 1 and a positive "
                    + "answered-ttl are needed");
            }
            if (takeAhead == null || takeAhead.isNegative()) {
                throw new IllegalArgumentException("sluice.ingress.rate.user.take-ahead must be 0 or positive, was " + takeAhead);
            }
        }

        /** Each take its own round trip (no take-ahead). */
        public User(double capacity, double refillPerSecond, double vipMultiplier, double initialFraction, String keyPrefix,
                Duration redisRetryAfter, double newUserCapacity, Duration answeredTtl) {
            this(capacity, refillPerSecond, vipMultiplier, initialFraction, keyPrefix, redisRetryAfter, newUserCapacity,
                answeredTtl, Duration.ZERO);
        }

        /** Without a new-user limit (every user starts at {@code initialFraction} of the full bucket), no take-ahead. */
        public User(double capacity, double refillPerSecond, double vipMultiplier, double initialFraction, String keyPrefix,
                Duration redisRetryAfter) {
            this(capacity, refillPerSecond, vipMultiplier, initialFraction, keyPrefix, redisRetryAfter,
                Math.max(1, capacity), Duration.ofDays(30));
        }
    }

    /**
     * @param maxRate          requests/s this instance admits when healthy (also the starting rate)
     * @param minRate          floor the rate never goes below
     * @param tick             how often the rate is adjusted
     * @param p95LatencyMs     p95 answering latency above which the rate shrinks
     * @param errorRatio       error ratio above which the rate shrinks
     * @param cpu              process CPU load (0..1) that counts as overload only while online answers are also
     *                         slow (p95 over half of p95LatencyMs): CPU burnt by the platform's own background work
     *                         (imports, re-indexing, rebuilds) never shrinks the rate by itself
     * @param decreaseFactor   multiplicative decrease per unhealthy tick
     * @param recoverFraction  additive recovery per healthy tick, as a fraction of maxRate (slow)
     * @param minSamples       fewer answers than this in the window: too little traffic to judge, no decrease
     * @param maxQueued        online requests waiting for admission above which the rate shrinks (0 = not a signal)
     * @param cluster          one rate for the whole cluster, shared in Redis (false = each instance admits maxRate)
     * @param keyPrefix        Redis key prefix of the cluster-wide rate
     * @param lease            longest an instance keeps admissions it took from the cluster's bucket in one batch
     *                         (one Redis round trip per batch, not per request); 0 = a round trip per request
     */
    public record Global(@DefaultValue("200") double maxRate, @DefaultValue("10") double minRate,
            @DefaultValue("1s") Duration tick, @DefaultValue("6000") double p95LatencyMs,
            @DefaultValue("0.25") double errorRatio, @DefaultValue("0.9") double cpu,
            @DefaultValue("0.7") double decreaseFactor, @DefaultValue("0.02") double recoverFraction,
            @DefaultValue("20") int minSamples, @DefaultValue("64") int maxQueued,
            @DefaultValue("true") boolean cluster, @DefaultValue("sluice:ingress:") String keyPrefix,
            @DefaultValue("50ms") Duration lease) {

        /** The per-instance limiter of earlier versions (no queue signal, not shared), for tools and tests. */
        public static Global perInstance(double maxRate, double minRate, Duration tick, double p95LatencyMs,
                double errorRatio, double cpu, double decreaseFactor, double recoverFraction, int minSamples) {
            return new Global(maxRate, minRate, tick, p95LatencyMs, errorRatio, cpu, decreaseFactor, recoverFraction,
                minSamples, 0, false, "sluice:ingress:", Duration.ZERO);
        }
    }
}
