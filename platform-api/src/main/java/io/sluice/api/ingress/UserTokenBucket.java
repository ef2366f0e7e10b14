package io.sluice.api.ingress;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.cluster.LuaScript;
import io.sluice.web.text.Sha256;

import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-user token bucket in Redis, one atomic Lua script per request (read, refill, take, write,
 * expire), timed by the Redis server clock so every instance agrees. VIP users get
 * {@code vipMultiplier}× rate and capacity. A user who was never answered has a small bucket
 * ({@code newUserCapacity}); it fills to the full capacity only after their first successful answer
 * ({@link #markAnswered}: topped up to what an established user starts with), so a flood of fresh user ids
 * buys no bursts.
 *
 * <p>Redis down: fail open to a local bucket per user (same rules, this instance only) for
 * {@code redisRetryAfter}, then try Redis again. Counted in {@code sluice.ingress.bucket.fallback};
 * {@code sluice.ingress.bucket.redis} is 1 while Redis answers, 0 while the fallback is in use.
 */
public class UserTokenBucket {

    /** Outcome of one take; {@code newUser}: never answered yet, so the bucket is the small new-user one. */
    public record Decision(boolean allowed, double tokensLeft, Duration retryAfter, boolean local, boolean newUser) {

        public Decision(boolean allowed, double tokensLeft, Duration retryAfter, boolean local) {
            this(allowed, tokensLeft, retryAfter, local, false);
        }
    }

    // KEYS: bucket, answered marker (one hash tag: one cluster slot). ARGV: capacity, perMs, initial, newUserCapacity,
    // tokens wanted (1 + taken ahead), tokens given back (what was taken ahead and not spent).
    // Reply: {allowed, tokens left × 1000, wait ms, new user, tokens granted}. Tokens beyond the first come only from
    // the part of the bucket above half its capacity: near the limit every request is decided here, exactly.
    static final String SCRIPT = """
        redis.replicate_commands()
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local capacity = tonumber(ARGV[1])
        local perMs = tonumber(ARGV[2])
        local newUser = redis.call('EXISTS', KEYS[2]) == 0
        if newUser then capacity = math.min(capacity, tonumber(ARGV[4])) end
        local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens'))
        local ts = tonumber(redis.call('HGET', KEYS[1], 'ts'))
        if tokens == nil or ts == nil then
          tokens = math.min(capacity, tonumber(ARGV[3]))
          ts = now
        end
        if now > ts then
          tokens = math.min(capacity, tokens + (now - ts) * perMs)
          ts = now
        end
        tokens = math.min(capacity, tokens + tonumber(ARGV[6] or '0'))
        local allowed = 0
        local wait = 0
        local granted = 0
        if tokens >= 1 then
          granted = 1
          local extra = math.min(tonumber(ARGV[5] or '1') - 1, math.floor(tokens - 1 - capacity / 2))
          if extra > 0 then granted = granted + extra end
          tokens = tokens - granted
          allowed = 1
        else
          wait = math.ceil((1 - tokens) / perMs)
        end
        redis.call('HSET', KEYS[1], 'tokens', tostring(tokens))
        redis.call('HSET', KEYS[1], 'ts', tostring(ts))
        redis.call('PEXPIRE', KEYS[1], math.ceil(2 * tonumber(ARGV[1]) / perMs))
        return {allowed, math.floor(tokens * 1000), wait, newUser and 1 or 0, granted}
        """;

    private static final Logger log = LoggerFactory.getLogger(UserTokenBucket.class);
    private static final int MAX_LOCAL_BUCKETS = 100_000;
    private static final Duration RENEW_EVERY = Duration.ofMinutes(1);

    private final RedissonClient redisson;
    private final RateLimitProperties.User properties;
    private final Supplier<UserLimits.Limits> limits;
    private final Counter fallbacks;
    private final Map<String, LocalBucket> local = new ConcurrentHashMap<>();
    /** Users this instance saw answered (the fallback's memory while Redis is unreachable). */
    private final Map<String, Boolean> locallyAnswered = new ConcurrentHashMap<>();
    /** User → nanoTime of this instance's last renewal of the answered marker (renewed at most once a minute). */
    private final Map<String, Long> renewedAt = new ConcurrentHashMap<>();
    /** User → its key part (a SHA-256 each request otherwise). */
    private final Map<String, String> hashedKeys = new ConcurrentHashMap<>();
    /** User → tokens this instance took ahead for them, and their recent demand here (take-ahead on). */
    private final Map<String, Ahead> ahead = new ConcurrentHashMap<>();
    private final long takeAheadNanos;
    private final LongSupplier clock;
    /** Run by SHA: a take sends the keys and six numbers, not the script's text. */
    private final LuaScript takeScript;
    private final LuaScript answeredScript;
    private volatile ScriptNumbers standardNumbers;
    private volatile ScriptNumbers vipNumbers;
    /** nanoTime from which Redis is tried again (nanoTime may be negative: start at "now"). */
    private volatile long redisRetryAt = System.nanoTime();

    public UserTokenBucket(RedissonClient redisson, RateLimitProperties.User properties, MeterRegistry meters) {
        this(redisson, properties, fixed(properties), meters);
    }

    /** @param limits capacity, rate and VIP multiplier in force, read per take (runtime-changeable: {@link UserLimits}) */
    public UserTokenBucket(RedissonClient redisson, RateLimitProperties.User properties, Supplier<UserLimits.Limits> limits,
            MeterRegistry meters) {
        this(redisson, properties, limits, meters, System::nanoTime);
    }

    /** @param clock {@link System#nanoTime} but for tests: what take-ahead intervals are measured with */
    UserTokenBucket(RedissonClient redisson, RateLimitProperties.User properties, Supplier<UserLimits.Limits> limits,
            MeterRegistry meters, LongSupplier clock) {
        this.clock = clock;
        this.redisson = redisson;
        this.properties = properties;
        this.limits = limits;
        this.takeAheadNanos = properties.takeAhead().toNanos();
        this.takeScript = new LuaScript(redisson, SCRIPT);
        this.answeredScript = new LuaScript(redisson, ANSWERED);
        this.fallbacks = Counter.builder("sluice.ingress.bucket.fallback")
            .description("per-user rate decisions taken locally because Redis was unavailable (fail open)")
            .register(meters);
        Gauge.builder("sluice.ingress.bucket.redis", this, bucket -> bucket.redisAvailable() ? 1 : 0)
            .description("1 while the per-user buckets are in Redis, 0 while the local fallback is used")
            .register(meters);
    }

    private static Supplier<UserLimits.Limits> fixed(RateLimitProperties.User properties) {
        UserLimits.Limits limits = new UserLimits.Limits(properties.capacity(), properties.refillPerSecond(),
            properties.vipMultiplier());
        return () -> limits;
    }

    public boolean redisAvailable() {
        return System.nanoTime() - redisRetryAt >= 0;
    }

    /** Takes one token from the user's bucket. */
    public Decision take(String user, boolean vip) {
        UserLimits.Limits in = limits.get();
        double factor = vip ? in.vipMultiplier() : 1.0;
        double capacity = in.capacity() * factor;
        double perMs = in.refillPerSecond() * factor / 1000.0;
        double initial = capacity * properties.initialFraction();
        double newUserCapacity = Math.min(capacity, properties.newUserCapacity() * factor);
        if (redisAvailable()) {
            Ahead kept = aheadOf(user);
            long want = 1;
            long giveBack = 0;
            if (kept != null) {
                Decision spent = kept.spend(clock.getAsLong());
                if (spent != null) {
                    return spent;
                }
                // spend found none to use: what is left goes back with this take, which asks for the last interval's demand
                Ahead.Ask ask = kept.ask();
                giveBack = ask.giveBack();
                want = ask.want();
            }
            try {
                String key = hashedKey(user);
                ScriptNumbers numbers = scriptNumbers(in, vip, capacity, perMs, initial, newUserCapacity);
                List<Long> result = takeScript.run(List.of(bucketKey(key), answeredKey(key)),
                    numbers.capacity(), numbers.perMs(), numbers.initial(), numbers.newUserCapacity(),
                    Long.toString(want), Long.toString(giveBack));
                boolean newUser = result.get(3) == 1;
                if (newUser) {
                    renewedAt.remove(user); // the marker is gone (expired, or Redis lost it): the next answer sets it
                }
                if (kept != null && result.get(4) > 1) {
                    kept.keep(result.get(4) - 1, newUser, clock.getAsLong() + takeAheadNanos);
                }
                return new Decision(result.get(0) == 1, result.get(1) / 1000.0, Duration.ofMillis(result.get(2)), false,
                    newUser);
            } catch (RuntimeException e) {
                redisRetryAt = System.nanoTime() + properties.redisRetryAfter().toNanos();
                log.warn("ingress: Redis unavailable for the per-user buckets, failing open to local buckets for {}: {}",
                    properties.redisRetryAfter(), e.toString());
            }
        }
        fallbacks.increment();
        if (local.size() > MAX_LOCAL_BUCKETS) {
            local.clear();
        }
        boolean newUser = !locallyAnswered.containsKey(user);
        double cap = newUser ? newUserCapacity : capacity;
        return local.computeIfAbsent(user, key -> new LocalBucket(Math.min(initial, cap))).take(cap, perMs, newUser);
    }

    /**
     * Remembers that the user got a successful answer (every answer renews it for {@code answeredTtl}). The
     * first time, the bucket is topped up by what an established user starts with beyond the new-user
     * bucket, and from now on it fills to the full capacity. Does not wait for Redis.
     */
    public void markAnswered(String user, boolean vip) {
        if (locallyAnswered.size() > MAX_LOCAL_BUCKETS) {
            locallyAnswered.clear();
        }
        UserLimits.Limits in = limits.get();
        double factor = vip ? in.vipMultiplier() : 1.0;
        double capacity = in.capacity() * factor;
        double initial = capacity * properties.initialFraction();
        double bonus = Math.max(0, initial - Math.min(initial, Math.min(capacity, properties.newUserCapacity() * factor)));
        boolean first = locallyAnswered.put(user, Boolean.TRUE) == null;
        LocalBucket localBucket = local.get(user);
        if (first && localBucket != null) {
            localBucket.add(bonus, capacity);
        }
        if (!redisAvailable() || renewedLately(user)) {
            return;
        }
        if (renewedAt.size() > MAX_LOCAL_BUCKETS) {
            renewedAt.clear();
        }
        renewedAt.put(user, System.nanoTime());
        String key = hashedKey(user);
        answeredScript.runAsync(List.of(bucketKey(key), answeredKey(key)), e -> {
            renewedAt.remove(user);
            log.debug("ingress: could not remember an answered user: {}", e.toString());
        }, Long.toString(properties.answeredTtl().toMillis()), Double.toString(bonus), Double.toString(capacity));
    }

    /**
     * Whether this instance renewed the user's marker less than a minute (or half its time to live) ago: an
     * answered user's every answer would otherwise cost a Redis write to push an expiry of 30 days by seconds.
     */
    private boolean renewedLately(String user) {
        Long at = renewedAt.get(user);
        long every = Math.min(properties.answeredTtl().toNanos() / 2, RENEW_EVERY.toNanos());
        return at != null && System.nanoTime() - at < every;
    }

    /** A take's four bucket numbers as the script's text, for the limits in force (VIP or not). */
    private record ScriptNumbers(UserLimits.Limits limits, String capacity, String perMs, String initial,
            String newUserCapacity) {
    }

    /**
     * The bucket numbers as text, formatted again only when the limits change: four {@code Double.toString} per
     * take were a visible share of a call's allocations when most takes go to Redis (users who ask now and then).
     */
    private ScriptNumbers scriptNumbers(UserLimits.Limits in, boolean vip, double capacity, double perMs, double initial,
            double newUserCapacity) {
        ScriptNumbers last = vip ? vipNumbers : standardNumbers;
        if (last != null && last.limits().equals(in)) {
            return last;
        }
        ScriptNumbers numbers = new ScriptNumbers(in, Double.toString(capacity), Double.toString(perMs),
            Double.toString(initial), Double.toString(newUserCapacity));
        if (vip) {
            vipNumbers = numbers;
        } else {
            standardNumbers = numbers;
        }
        return numbers;
    }

    private String hashedKey(String user) {
        if (hashedKeys.size() > MAX_LOCAL_BUCKETS) {
            hashedKeys.clear();
        }
        return hashedKeys.computeIfAbsent(user, UserTokenBucket::keyOf);
    }

    // KEYS: bucket, answered marker. ARGV: ttlMs, bonus, capacity. The first answer tops the bucket up by `bonus`.
    static final String ANSWERED = """
        local fresh = redis.call('SET', KEYS[2], '1', 'PX', ARGV[1], 'NX')
        if not fresh then
          redis.call('PEXPIRE', KEYS[2], ARGV[1])
          return {0}
        end
        local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens'))
        if tokens ~= nil then
          redis.call('HSET', KEYS[1], 'tokens', tostring(math.min(tonumber(ARGV[3]), tokens + tonumber(ARGV[2]))))
        end
        return {1}
        """;

    /** Whether the user has been answered before (false while Redis is unreachable and this instance has not seen it). */
    public boolean answeredBefore(String user) {
        if (locallyAnswered.containsKey(user)) {
            return true;
        }
        try {
            return redisAvailable() && redisson.getBucket(answeredKey(hashedKey(user)), StringCodec.INSTANCE).isExists();
        } catch (RuntimeException e) {
            return false;
        }
    }

    private String bucketKey(String hashed) {
        return properties.keyPrefix() + "{" + hashed + "}";
    }

    private String answeredKey(String hashed) {
        return properties.keyPrefix() + "{" + hashed + "}:answered";
    }

    /**
     * The Redis key part of a user: a SHA-256 digest (first 128 bits, hex), so a key never holds a user id
     * (which may be personal data) and has the same size whatever the id's length.
     */
    static String keyOf(String user) {
        return Sha256.hex(user, 16);
    }

    private Ahead aheadOf(String user) {
        if (takeAheadNanos == 0) {
            return null;
        }
        if (ahead.size() > MAX_LOCAL_BUCKETS) {
            ahead.clear(); // tokens taken ahead for users dropped here are simply not spent
        }
        return ahead.computeIfAbsent(user, u -> new Ahead(takeAheadNanos, clock.getAsLong()));
    }

    /**
     * Tokens of one user's Redis bucket this instance took ahead: spent here without a round trip until the
     * take-ahead interval ends, then what is left goes back with the user's next Redis take. How many are
     * asked for is what the user sent here in the last interval.
     */
    static final class Ahead {
        private final ReentrantLock lock = new ReentrantLock();
        private final long interval;
        private long tokens;
        private long until;
        private boolean newUser;
        private long intervalStart;
        private long demand;
        private long lastDemand;

        Ahead(long interval, long now) {
            this.interval = interval;
            this.intervalStart = now;
        }

        /** An allowed decision from the tokens taken ahead, or null (none left, or past their interval). */
        Decision spend(long now) {
            lock.lock();
            try {
                if (now - intervalStart >= interval) {
                    lastDemand = now - intervalStart < 2 * interval ? demand : 0;
                    demand = 0;
                    intervalStart = now;
                }
                demand++;
                if (tokens > 0 && now - until < 0) {
                    tokens--;
                    return new Decision(true, tokens, Duration.ZERO, false, newUser);
                }
                return null;
            } finally {
                lock.unlock();
            }
        }

        /** The next Redis take: tokens wanted (at least 1) and the ones left here, removed to go back. */
        record Ask(long want, long giveBack) {
        }

        Ask ask() {
            lock.lock();
            try {
                long left = tokens;
                tokens = 0;
                return new Ask(Math.max(1, lastDemand), left);
            } finally {
                lock.unlock();
            }
        }

        void keep(long granted, boolean newUser, long until) {
            lock.lock();
            try {
                this.tokens += granted;
                this.newUser = newUser;
                this.until = until;
            } finally {
                lock.unlock();
            }
        }
    }

    /** The same bucket in process memory, for when Redis is unavailable. */
    static final class LocalBucket {
        private double tokens;
        private long lastNanos = System.nanoTime();

        LocalBucket(double initial) {
            this.tokens = initial;
        }

        synchronized void add(double bonus, double capacity) {
            tokens = Math.min(capacity, tokens + bonus);
        }

        synchronized Decision take(double capacity, double perMs, boolean newUser) {
            long now = System.nanoTime();
            tokens = Math.min(capacity, tokens + (now - lastNanos) / 1_000_000.0 * perMs);
            lastNanos = now;
            if (tokens >= 1) {
                tokens -= 1;
                return new Decision(true, tokens, Duration.ZERO, true, newUser);
            }
            return new Decision(false, tokens, Duration.ofMillis((long) Math.ceil((1 - tokens) / perMs)), true, newUser);
        }
    }
}
