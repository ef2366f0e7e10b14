package io.sluice.bench.jmh;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.ingress.UserLimits;
import io.sluice.api.ingress.UserTokenBucket;
import io.sluice.api.ingress.RateLimitProperties;
import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.tpm.ProviderRateLimits;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.redisson.client.codec.StringCodec;

/**
 * The Redis scripts on the request path, one caller thread, real Redis ({@code SLUICE_REDIS_URL}):
 * <ul>
 * <li>{@code redisGet}: one plain {@code GET} through the same Redisson client, the floor any
 * round trip pays (for scale);</li>
 * <li>{@code userBucketTake}: {@link UserTokenBucket#take}, the per-user bucket script (read, refill,
 * take, write, expire), over 1,000 users in turn; the bucket is large enough that every take is
 * allowed, so the Redis path (not the local fallback) is what is timed;</li>
 * <li>{@code providerReserveSettle}: {@link ProviderRateLimits#reserve} (cool-down check + sliding-window
 * reservation script, awaited) then {@link ProviderRateLimits#settle} (started without waiting, as the
 * gateway does). Window 1 s, so the log holds about one second of reservations, as a 60 s window
 * does at a sixtieth of the call rate.</li>
 * </ul>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Threads(1)
@State(Scope.Benchmark)
public class TokenBucketBenchmark {

    private static final int USERS = 1_000;

    private BenchRedis redis;
    private UserTokenBucket buckets;
    private ProviderRateLimits rateLimits;
    private String getKey;
    private int user;

    @Setup(Level.Trial)
    public void setUp() {
        redis = new BenchRedis("bucket");
        RateLimitProperties.User properties = new RateLimitProperties.User(UserLimits.MAX_CAPACITY,
            UserLimits.MAX_REFILL_PER_SECOND, 3, 0.5, redis.prefix() + "user:",
            Duration.ofSeconds(5));
        buckets = new UserTokenBucket(redis.client(), properties, new SimpleMeterRegistry());
        rateLimits = new ProviderRateLimits(redis.client(), redis.prefix() + "gw:", new RedisGuard(Duration.ofSeconds(2)),
            () -> 1, 1_000_000_000_000L, Duration.ofSeconds(1));
        getKey = redis.prefix() + "get";
        redis.client().getBucket(getKey, StringCodec.INSTANCE).set("x");
        // fail now, not in the middle of a measurement, if Redis is not reachable
        if (buckets.take("warm-up", false).local() || !(rateLimits.reserve("gpt-bench", 1)
                instanceof ProviderRateLimits.Admission.Admitted)) {
            throw new IllegalStateException("Redis did not answer the bucket scripts");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        redis.close();
    }

    @Benchmark
    public Object redisGet() {
        return redis.client().getBucket(getKey, StringCodec.INSTANCE).get();
    }

    @Benchmark
    public UserTokenBucket.Decision userBucketTake() {
        user = (user + 1) % USERS;
        UserTokenBucket.Decision decision = buckets.take("u" + user, false);
        if (!decision.allowed() || decision.local()) {
            throw new IllegalStateException("expected an allowed Redis decision: " + decision);
        }
        return decision;
    }

    @Benchmark
    public ProviderRateLimits.Admission providerReserveSettle() {
        ProviderRateLimits.Admission admission = rateLimits.reserve("gpt-bench", 600);
        if (!(admission instanceof ProviderRateLimits.Admission.Admitted admitted) || admitted.local()) {
            throw new IllegalStateException("expected a Redis reservation: " + admission);
        }
        rateLimits.settle(admitted, 450);
        return admission;
    }
}
