package io.sluice.governance.budget;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.sluice.governance.cluster.LuaScript;
import io.sluice.governance.cluster.RedisGuard;

import org.redisson.api.RedissonClient;

/**
 * Retries across the cluster stay under a ratio of traffic (e.g. 10 %), so a provider outage is not
 * amplified by every instance retrying: counted in Redis per window (current and previous window
 * together, so the budget does not reset at a boundary); a small floor lets a quiet cluster retry at all.
 */
public final class RetryBudget implements AutoCloseable {

    // KEYS: prefix. ARGV: windowMs, what ('call' | 'retry'), ratio, minRetries, calls. Reply: {allowed}
    private static final String SCRIPT = """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        local window = tonumber(ARGV[1])
        local bucket = math.floor(now / window)
        local calls = KEYS[1] .. ':calls:' .. bucket
        local retries = KEYS[1] .. ':retries:' .. bucket
        if ARGV[2] == 'call' then
          redis.call('INCRBY', calls, tonumber(ARGV[5]))
          redis.call('PEXPIRE', calls, window * 3)
          return {1}
        end
        local c = tonumber(redis.call('GET', calls) or '0') + tonumber(redis.call('GET', KEYS[1] .. ':calls:' .. (bucket - 1)) or '0')
        local r = tonumber(redis.call('GET', retries) or '0') + tonumber(redis.call('GET', KEYS[1] .. ':retries:' .. (bucket - 1)) or '0')
        if r < math.max(tonumber(ARGV[4]), tonumber(ARGV[3]) * c) then
          redis.call('INCR', retries)
          redis.call('PEXPIRE', retries, window * 3)
          return {1}
        end
        return {0}
        """;

    private final LuaScript script;
    private final RedisGuard guard;
    private final String prefix;
    private final double ratio;
    private final int minRetries;
    private final long windowMs;
    private final AtomicLong localWindow = new AtomicLong();
    private final AtomicLong localCalls = new AtomicLong();
    private final AtomicLong localRetries = new AtomicLong();
    private final java.util.concurrent.atomic.LongAdder unflushedCalls = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.ScheduledExecutorService flusher;

    public RetryBudget(RedissonClient redisson, String keyPrefix, RedisGuard guard, double ratio, int minRetries,
            Duration window) {
        if (ratio < 0 || ratio > 1) {
            throw new IllegalArgumentException("retry ratio must be within [0, 1]");
        }
        this.script = new LuaScript(redisson, SCRIPT);
        this.guard = guard;
        // a hash tag keeps all retry keys in one slot on a Redis cluster
        this.prefix = keyPrefix + "{retry}";
        this.ratio = ratio;
        this.minRetries = minRetries;
        this.windowMs = window.toMillis();
        this.flusher = java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sluice-retry-budget");
            t.setDaemon(true);
            return t;
        });
        long flushEvery = Math.max(50, Math.min(250, windowMs / 20));
        flusher.scheduleWithFixedDelay(this::flush, flushEvery, flushEvery, java.util.concurrent.TimeUnit.MILLISECONDS);
    }

    /** Counts one first attempt (the traffic the ratio applies to). */
    public void recordCall() {
        // counted locally and flushed to Redis a few times a second: a call pays no round trip for bookkeeping
        unflushedCalls.increment();
        rollLocal();
        localCalls.incrementAndGet();
    }

    void flush() {
        long calls = unflushedCalls.sumThenReset();
        if (calls == 0) {
            return;
        }
        try {
            guard.run(() -> script.run(List.of(prefix), windowMs, "call", ratio, minRetries, calls), () -> {
            });
        } catch (RuntimeException e) {
            // bookkeeping never kills its thread; the local counters still hold this instance's calls
        }
    }

    @Override
    public void close() {
        flusher.shutdownNow();
    }

    /** Takes one retry from the budget; false when the cluster already retries too much. */
    public boolean tryRetry() {
        flush();
        return guard.call(() -> script.run(List.of(prefix), windowMs, "retry", ratio, minRetries, 0).get(0) == 1L, () -> {
            rollLocal();
            if (localRetries.get() < Math.max(minRetries, ratio * localCalls.get())) {
                localRetries.incrementAndGet();
                return true;
            }
            return false;
        });
    }

    private synchronized void rollLocal() {
        long bucket = System.currentTimeMillis() / windowMs;
        if (localWindow.getAndSet(bucket) != bucket) {
            localCalls.set(0);
            localRetries.set(0);
        }
    }
}
