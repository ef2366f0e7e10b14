package io.sluice.governance.cluster;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import org.redisson.api.RedissonClient;

/**
 * The global rate shared by every instance, in Redis: one token bucket (burst = one second) for the whole
 * cluster, so N instances together admit the rate, not N times it. Each instance publishes its own adaptive
 * rate every tick; the cluster refills at the mean of the live instances' rates. When Redis is unreachable
 * each instance falls back to its share, rate ÷ live instances (as last seen), in a local bucket — as the
 * LLM permits do — and returns to the shared bucket when Redis answers again.
 *
 * <p>Keys, all under one hash tag ({@code {global}}) so each script runs on one Redis Cluster slot:
 * {@code <prefix>{global}:bucket} (hash: tokens, ts) and {@code <prefix>{global}:rates} (hash: instance →
 * "rate|seen-ms"). One script call per tick, and one per lease: an instance takes its admissions from the
 * shared bucket in batches ({@code lease}: at most what its share of the rate brings in that long, sized by its
 * own recent demand) and hands them out locally until the batch is used or {@code lease} has passed; an expired
 * batch's rest goes back to the bucket with the next call, and a refusal's wait is kept, so the other callers of
 * this instance are refused locally until then. Every admission is still a token of the one shared
 * bucket, so the cluster never admits more than the rate plus one second's burst; a lease only moves the
 * round trip off most requests (about one per lease period per instance under load instead of one per request).
 */
public final class ClusterGlobalRate {

    // KEYS: bucket. ARGV: rate (req/s), tokens wanted, tokens given back (an expired lease's rest). Reply: {granted
    // (0 = refused), wait ms for one token}. Redis time: one clock for all instances. The bucket never holds more
    // than one second's worth, with or without what is given back.
    private static final String TAKE = """
        local rate = tonumber(ARGV[1])
        local want = tonumber(ARGV[2])
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local tokens = tonumber(redis.call('HGET', KEYS[1], 'tokens') or rate)
        local ts = tonumber(redis.call('HGET', KEYS[1], 'ts') or now)
        tokens = math.min(rate, tokens + math.max(0, now - ts) / 1000 * rate + tonumber(ARGV[3]))
        local granted = 0
        local wait = 0
        if tokens >= 1 then
          granted = math.min(want, math.floor(tokens))
          tokens = tokens - granted
        else
          wait = math.ceil((1 - tokens) / rate * 1000)
        end
        redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'ts', tostring(now))
        redis.call('PEXPIRE', KEYS[1], 60000)
        return {granted, wait}
        """;

    // KEYS: rates. ARGV: instance, rate, staleMs. Reply: {mean rate × 1000, live instances}
    private static final String PUBLISH = """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        redis.call('HSET', KEYS[1], ARGV[1], ARGV[2] .. '|' .. now)
        local all = redis.call('HGETALL', KEYS[1])
        local sum, live = 0, 0
        for i = 1, #all, 2 do
          local rate, seen = string.match(all[i + 1], '^(.*)|(.*)$')
          if now - tonumber(seen) > tonumber(ARGV[3]) then
            redis.call('HDEL', KEYS[1], all[i])
          else
            sum = sum + tonumber(rate)
            live = live + 1
          end
        end
        redis.call('PEXPIRE', KEYS[1], 60000)
        return {math.floor(sum / live * 1000), live}
        """;

    private final LuaScript take;
    private final LuaScript publish;
    private final RedisGuard guard;
    private final List<Object> bucketKey;
    private final List<Object> ratesKey;
    private final String instance = UUID.randomUUID().toString();
    private final long staleMs;
    private volatile int live = 1;
    private volatile double clusterRate;
    private double localTokens = -1;
    private long localNanos = System.nanoTime();
    private final long leaseNanos;
    private final java.util.concurrent.atomic.LongAdder roundTrips = new java.util.concurrent.atomic.LongAdder();
    // the current lease (guarded by leaseLock): admissions left, when it ends, how many it has served, and until
    // when the shared bucket has no token for anyone (its last refusal's wait)
    private final Object leaseLock = new Object();
    private int leased;
    private long leaseEnds;
    private int served;
    private long refusedUntil = System.nanoTime();
    // the refill under way (guarded by leaseLock), which callers finding the lease used up wait for
    private CompletableFuture<Void> refill;
    private static final int JOINS = 3;

    /**
     * @param staleAfter an instance that has not published for this long no longer counts (3 ticks is usual)
     */
    public ClusterGlobalRate(RedissonClient redisson, String keyPrefix, RedisGuard guard, Duration staleAfter) {
        this(redisson, keyPrefix, guard, staleAfter, Duration.ZERO);
    }

    /**
     * @param staleAfter an instance that has not published for this long no longer counts (3 ticks is usual)
     * @param lease      longest an instance keeps admissions taken in one batch; zero = one round trip per admission
     */
    public ClusterGlobalRate(RedissonClient redisson, String keyPrefix, RedisGuard guard, Duration staleAfter,
            Duration lease) {
        if (lease.isNegative()) {
            throw new IllegalArgumentException("lease must not be negative: " + lease);
        }
        this.leaseNanos = lease.toNanos();
        this.take = new LuaScript(redisson, TAKE);
        this.publish = new LuaScript(redisson, PUBLISH);
        this.guard = guard;
        this.bucketKey = List.of(keyPrefix + "{global}:bucket");
        this.ratesKey = List.of(keyPrefix + "{global}:rates");
        this.staleMs = staleAfter.toMillis();
    }

    /** Publishes this instance's adaptive rate; returns the cluster's rate (its own when Redis is down). */
    public double publish(double ownRate) {
        clusterRate = guard.call(() -> {
            List<Long> reply = publish.run(ratesKey, instance, Double.toString(ownRate), staleMs);
            live = (int) Math.max(1, reply.get(1));
            return reply.get(0) / 1000.0;
        }, () -> ownRate);
        return clusterRate;
    }

    /**
     * Takes one admission from the cluster's bucket at {@code rate}; zero = admitted, else how long to wait. When the
     * lease is used up, one caller refills it while the others wait for that refill (at most {@link #JOINS} times)
     * instead of each making a round trip of its own for one admission: with many callers at once, the moment a
     * lease ran out used to send one round trip per caller.
     */
    public Duration take(double rate) {
        for (int joined = 0; ; joined++) {
            int want;
            int giveBack;
            CompletableFuture<Void> inFlight;
            CompletableFuture<Void> mine = null;
            synchronized (leaseLock) {
                long now = System.nanoTime();
                if (leased > 0 && now - leaseEnds < 0) {
                    leased--;
                    served++;
                    return Duration.ZERO;
                }
                if (leaseNanos > 0 && now - refusedUntil < 0) {
                    // the shared bucket said it has no token before then: the other callers here need not ask again
                    return Duration.ofMillis(Math.max(1, (refusedUntil - now + 999_999) / 1_000_000));
                }
                inFlight = leaseNanos > 0 && joined < JOINS ? refill : null;
                if (inFlight == null) {
                    giveBack = leased;
                    leased = 0;
                    // the next batch: twice what the last one served (demand), within what this instance's share of
                    // the rate brings in one lease period; 1 = a round trip per admission (low rates, no lease)
                    int cap = (int) Math.max(1, Math.floor(rate / live * leaseNanos / 1e9));
                    want = Math.min(cap, Math.max(1, served * 2));
                    served = 0;
                    if (leaseNanos > 0 && refill == null) {
                        mine = new CompletableFuture<>();
                        refill = mine;
                    }
                } else {
                    giveBack = 0;
                    want = 0;
                }
            }
            if (inFlight != null) {
                inFlight.join(); // bounded by the guard's command timeout: the refill always completes
                continue;
            }
            try {
                return takeFromBucket(rate, want, giveBack);
            } finally {
                if (mine != null) {
                    synchronized (leaseLock) {
                        refill = null;
                    }
                    mine.complete(null);
                }
            }
        }
    }

    private Duration takeFromBucket(double rate, int asked, int giveBack) {
        return guard.call(() -> {
            roundTrips.increment();
            List<Long> reply = take.run(bucketKey, Double.toString(rate), asked, giveBack);
            long granted = reply.get(0);
            if (granted < 1) {
                Duration wait = Duration.ofMillis(Math.max(1, reply.get(1)));
                if (leaseNanos > 0) {
                    synchronized (leaseLock) {
                        refusedUntil = System.nanoTime() + wait.toNanos();
                    }
                }
                return wait;
            }
            synchronized (leaseLock) {
                if (granted > 1) {
                    leased += (int) granted - 1;
                    leaseEnds = System.nanoTime() + leaseNanos;
                }
                served++;
            }
            return Duration.ZERO;
        }, () -> takeLocal(rate / live));
    }

    /** Calls of the take script so far (with leases, far fewer than admissions under load). */
    public long roundTrips() {
        return roundTrips.sum();
    }

    /** Instances that published within the stale window, as last seen (at least 1). */
    public int liveInstances() {
        return live;
    }

    /** Whether the shared bucket is in use (false: Redis unreachable, this instance keeps to its share). */
    public boolean shared() {
        return !guard.down();
    }

    private synchronized Duration takeLocal(double share) {
        long now = System.nanoTime();
        if (localTokens < 0) {
            localTokens = share;
        }
        localTokens = Math.min(share, localTokens + (now - localNanos) / 1e9 * share);
        localNanos = now;
        if (localTokens < 1) {
            return Duration.ofMillis((long) Math.ceil((1 - localTokens) / share * 1000));
        }
        localTokens -= 1;
        return Duration.ZERO;
    }
}
