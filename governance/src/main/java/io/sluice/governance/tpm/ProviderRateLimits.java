package io.sluice.governance.tpm;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntSupplier;

import io.sluice.governance.cluster.LuaScript;
import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.provider.RateLimitInfo;

import org.redisson.api.RBucket;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * The provider's rate limits as the whole cluster shares them: a tokens-per-window bucket and the
 * cool-down a 429 imposes. Before a call its estimate (prompt + max_tokens) is reserved and the
 * model's cool-down checked, atomically, in one Lua script; afterwards the reservation is settled to
 * the actual usage, and the provider's {@code x-ratelimit-*} headers pull the bucket down to what the
 * provider says is left.
 *
 * <p>The bucket is a sliding window log in Redis (time from Redis, so instance clocks do not matter).
 * When Redis is unreachable each instance keeps a local window with its share (limit ÷ known
 * instances): never fail open, never fail closed.
 */
public final class ProviderRateLimits {

    /** What {@link #reserve} decided. */
    public sealed interface Admission {
        /** Reserved; settle it after the call. */
        record Admitted(String id, long tokens, boolean local) implements Admission {
        }

        /** The model is in a shared 429 cool-down for {@code remaining}. */
        record CoolingDown(Duration remaining) implements Admission {
        }

        /** The token bucket is spent; enough frees up in {@code retryIn}. */
        record Refused(Duration retryIn, String reason) implements Admission {
        }
    }

    // Lua fragments the scripts below share. Each script reads the Redis clock once (`now`), keeps
    // `used` = tokens in the window and `window` in ms; EXPIRE drops what slid out of the window.
    private static final String NOW = """
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        """;
    private static final String EXPIRE = """
        local expired = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now - window)
        for _, m in ipairs(expired) do
          used = used - tonumber(string.sub(m, string.find(m, '|', 1, true) + 1))
        end
        if #expired > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window) end
        """;
    // Settles reservation `id` of `reserved` tokens to `actual`. The settled entry is re-stamped with the
    // settle time: it then covers the whole span in which the provider may have counted the call
    // (anywhere between reserve and settle), so no provider window sees more than the limit however
    // long calls queue on the way.
    private static final String SETTLE_ENTRY = """
        local member = id .. '|' .. reserved
        local score = redis.call('ZSCORE', KEYS[1], member)
        if score then
          redis.call('ZREM', KEYS[1], member)
          if actual > 0 then redis.call('ZADD', KEYS[1], math.max(tonumber(score), now), id .. '|' .. actual) end
          used = used - reserved + actual
        end
        """;
    // Pulls the window down to the provider's `theirs` tokens left (reset in `reset` ms) with a phantom
    // entry `syncId` that expires when the provider's window resets.
    private static final String SYNC_ENTRY = """
        used = math.max(used, 0)
        local ours = limit - used
        if theirs < ours then
          local phantom = ours - theirs
          redis.call('ZADD', KEYS[1], now + math.min(reset, window) - window, syncId .. '|' .. phantom)
          used = used + phantom
          redis.call('PEXPIRE', KEYS[1], window * 2)
        end
        """;

    // KEYS: log, sum, cooldown. ARGV: limit, windowMs, id, tokens. Reply: {status, value, remaining}
    //   status 1 admitted (value = now), 0 refused (value = ms until enough frees), -1 cooling (value = pttl)
    private static final String RESERVE = """
        local pttl = redis.call('PTTL', KEYS[3])
        if pttl > 0 then return {-1, pttl, 0} end
        local limit = tonumber(ARGV[1])
        local window = tonumber(ARGV[2])
        local tokens = tonumber(ARGV[4])
        if limit <= 0 then return {1, 0, -1} end
        local used = tonumber(redis.call('GET', KEYS[2]) or '0')
        """ + NOW + EXPIRE + """
        if used < 0 or redis.call('ZCARD', KEYS[1]) == 0 then used = 0 end
        if used + tokens <= limit then
          redis.call('ZADD', KEYS[1], now, ARGV[3] .. '|' .. tokens)
          redis.call('SET', KEYS[2], used + tokens, 'PX', window * 2)
          redis.call('PEXPIRE', KEYS[1], window * 2)
          return {1, now, limit - used - tokens}
        end
        redis.call('SET', KEYS[2], used, 'PX', window * 2)
        local need = used + tokens - limit
        local freed = 0
        local entries = redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')
        for i = 1, #entries, 2 do
          local m = entries[i]
          freed = freed + tonumber(string.sub(m, string.find(m, '|', 1, true) + 1))
          if freed >= need then return {0, math.max(1, tonumber(entries[i + 1]) + window - now), limit - used} end
        end
        return {0, window, limit - used}
        """;

    // KEYS: log, sum. ARGV: id, reservedTokens, actualTokens, windowMs
    private static final String SETTLE = """
        local id, reserved, actual, window = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
        local used = tonumber(redis.call('GET', KEYS[2]) or '0')
        """ + NOW + SETTLE_ENTRY + """
        redis.call('SET', KEYS[2], math.max(used, 0), 'PX', window * 2)
        return {1}
        """;

    // KEYS: log, sum. ARGV: limit, windowMs, providerRemaining, resetMs, syncId. Reply: {used}
    private static final String SYNC = """
        local limit, window, theirs, reset, syncId = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
        local used = tonumber(redis.call('GET', KEYS[2]) or '0')
        """ + NOW + EXPIRE + SYNC_ENTRY + """
        redis.call('SET', KEYS[2], used, 'PX', window * 2)
        return {used}
        """;

    // SETTLE then SYNC in one script, so they keep their order without the caller waiting for either.
    // KEYS: log, sum. ARGV: id, reservedTokens, actualTokens, windowMs, limit, providerRemaining, resetMs, syncId
    private static final String SETTLE_THEN_SYNC = """
        local id, reserved, actual, window = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
        local limit, theirs, reset, syncId = tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[8]
        local used = tonumber(redis.call('GET', KEYS[2]) or '0')
        """ + NOW + SETTLE_ENTRY + EXPIRE + SYNC_ENTRY + """
        redis.call('SET', KEYS[2], used, 'PX', window * 2)
        return {used}
        """;

    private final RedisGuard guard;
    private final IntSupplier knownInstances;
    private final long limit;
    private final long windowMs;
    private final String logKey;
    private final String sumKey;
    private final String cooldownPrefix;
    private final RedissonClient redisson;
    private final LuaScript reserve;
    private final LuaScript settle;
    private final LuaScript sync;
    private final LuaScript settleThenSync;
    private final LocalWindow local = new LocalWindow();
    private final Map<String, Long> localCooldownUntil = new ConcurrentHashMap<>();
    private final RTopic cooldowns;
    // reservation ids only need to be unique across instances: a random prefix per instance and a
    // counter, instead of a UUID per call (SecureRandom is one lock for the whole JVM)
    private final String idPrefix = UUID.randomUUID().toString().substring(0, 13);
    private final AtomicLong idSequence = new AtomicLong();

    /**
     * @param limit  tokens per window for the whole cluster (0 = no token limit; cool-downs still apply)
     * @param window the window (60 s for a per-minute limit; shorter in tests)
     */
    public ProviderRateLimits(RedissonClient redisson, String keyPrefix, RedisGuard guard, IntSupplier knownInstances,
            long limit, Duration window) {
        this.redisson = redisson;
        this.guard = guard;
        this.knownInstances = knownInstances;
        this.limit = limit;
        this.windowMs = window.toMillis();
        this.logKey = keyPrefix + "{tpm}:log";
        this.sumKey = keyPrefix + "{tpm}:sum";
        // the reserve script reads the cool-down beside the log and sum: one hash tag, one cluster slot
        this.cooldownPrefix = keyPrefix + "{tpm}:cooldown:";
        this.reserve = new LuaScript(redisson, RESERVE);
        this.settle = new LuaScript(redisson, SETTLE);
        this.sync = new LuaScript(redisson, SYNC);
        this.settleThenSync = new LuaScript(redisson, SETTLE_THEN_SYNC);
        this.cooldowns = redisson.getTopic(keyPrefix + "cooldowns", StringCodec.INSTANCE);
        guard.run(() -> cooldowns.addListener(String.class, (channel, message) -> {
            int bar = message.lastIndexOf('|');
            if (bar > 0) {
                localCoolDown(message.substring(0, bar), Duration.ofMillis(Long.parseLong(message.substring(bar + 1))));
            }
        }), () -> {
        });
    }

    public long limit() {
        return limit;
    }

    /** Reserves {@code tokens} for a call to {@code model}, unless the model cools down or the bucket is spent. */
    public Admission reserve(String model, long tokens) {
        if (limit > 0 && tokens > limit) {
            return new Admission.Refused(Duration.ofMillis(windowMs),
                "the call's estimate of " + tokens + " tokens exceeds the whole budget of " + limit);
        }
        String id = nextId();
        if (limit <= 0) {
            // no token budget: only the cool-down matters, and every instance learns of it by pub/sub,
            // so admission costs no round trip
            return reserveLocally(model, id, tokens);
        }
        return guard.call(() -> {
            List<Long> reply = reserve.run(List.of(logKey, sumKey, cooldownPrefix + model), limit, windowMs, id, tokens);
            long status = reply.get(0);
            if (status < 0) {
                return new Admission.CoolingDown(Duration.ofMillis(reply.get(1)));
            }
            if (status == 0) {
                return new Admission.Refused(Duration.ofMillis(reply.get(1)),
                    "token budget spent: " + reply.get(2) + " of " + limit + " tokens left in the window");
            }
            return (Admission) new Admission.Admitted(id, tokens, false);
        }, () -> reserveLocally(model, id, tokens));
    }

    /** Replaces a reservation by the tokens the call actually used (0 = the provider refused it). */
    public void settle(Admission.Admitted admitted, long actualTokens) {
        if (limit <= 0) {
            return;
        }
        if (admitted.local()) {
            local.settle(admitted.id(), actualTokens);
            return;
        }
        // without waiting: if it fails, the reservation simply stays at the (higher) estimate
        guard.async(onFailure -> settle.runAsync(List.of(logKey, sumKey), onFailure, admitted.id(), admitted.tokens(),
            actualTokens, windowMs), () -> {
            });
    }

    /**
     * Settles a reservation, then syncs from the provider's headers — in that order, in one script
     * that the call does not wait for (it costs the call no round trip; the next reservation may
     * briefly see the estimate instead of the actual, which errs on the safe side).
     */
    public void settleAndSync(String model, Admission.Admitted admitted, long actualTokens, RateLimitInfo info) {
        if (info.retryAfter() != null && !info.retryAfter().isZero()) {
            coolDown(model, info.retryAfter());
        }
        if (limit > 0 && info.remainingTokens() != null && !admitted.local()) {
            long resetMs = info.resetTokens() == null ? windowMs : Math.max(1, info.resetTokens().toMillis());
            guard.async(onFailure -> settleThenSync.runAsync(List.of(logKey, sumKey), onFailure, admitted.id(),
                admitted.tokens(), actualTokens, windowMs, limit, info.remainingTokens(), resetMs, "sync-" + nextId()),
                () -> {
                });
            return;
        }
        settle(admitted, actualTokens);
        sync(model, info);
    }

    /** Pulls the bucket down to what the provider says is left; starts a cool-down on Retry-After. */
    public void sync(String model, RateLimitInfo info) {
        if (info.retryAfter() != null && !info.retryAfter().isZero()) {
            coolDown(model, info.retryAfter());
        }
        if (limit <= 0 || info.remainingTokens() == null) {
            return;
        }
        long resetMs = info.resetTokens() == null ? windowMs : Math.max(1, info.resetTokens().toMillis());
        String id = "sync-" + nextId();
        guard.run(() -> sync.run(List.of(logKey, sumKey), limit, windowMs, info.remainingTokens(), resetMs, id),
            () -> local.sync(share(), info.remainingTokens(), resetMs, id));
    }

    /** Starts (or extends) the shared cool-down of a model: every instance refuses calls to it until then. */
    public void coolDown(String model, Duration duration) {
        localCoolDown(model, duration);
        guard.run(() -> {
            RBucket<String> bucket = redisson.getBucket(cooldownPrefix + model, StringCodec.INSTANCE);
            long current = bucket.remainTimeToLive();
            if (current < duration.toMillis()) {
                bucket.set("429", duration);
            }
            cooldowns.publish(model + "|" + duration.toMillis());
        }, () -> {
        });
    }

    private void localCoolDown(String model, Duration duration) {
        localCooldownUntil.merge(model, System.nanoTime() + duration.toNanos(), (a, b) -> a - b > 0 ? a : b);
    }

    /** Tokens used in the current window, cluster-wide (this instance's share when Redis is down). */
    public long used() {
        return guard.call(() -> {
            String value = redisson.<String>getBucket(sumKey, StringCodec.INSTANCE).get();
            return value == null ? 0L : Long.parseLong(value);
        }, local::used);
    }

    public long remaining() {
        return limit <= 0 ? Long.MAX_VALUE : Math.max(0, limit - used());
    }

    private long share() {
        return Math.max(1, limit / Math.max(1, knownInstances.getAsInt()));
    }

    private String nextId() {
        return idPrefix + idSequence.incrementAndGet();
    }

    private Admission reserveLocally(String model, String id, long tokens) {
        Long until = localCooldownUntil.get(model);
        long now = System.nanoTime();
        if (until != null && until - now > 0) {
            return new Admission.CoolingDown(Duration.ofNanos(until - now));
        }
        if (limit <= 0) {
            return new Admission.Admitted(id, tokens, true);
        }
        return local.reserve(share(), id, tokens);
    }

    /** The per-instance fallback window. */
    private final class LocalWindow {
        private final Deque<Object[]> log = new ArrayDeque<>(); // {id, atMillis, tokens}

        synchronized Admission reserve(long share, String id, long tokens) {
            long now = System.currentTimeMillis();
            long used = expire(now);
            if (used + tokens <= share) {
                log.addLast(new Object[] {id, now, tokens});
                return new Admission.Admitted(id, tokens, true);
            }
            long need = used + tokens - share;
            long freed = 0;
            for (Object[] e : log) {
                freed += (long) e[2];
                if (freed >= need) {
                    return new Admission.Refused(Duration.ofMillis(Math.max(1, (long) e[1] + windowMs - now)),
                        "token share spent (redis unreachable): " + Math.max(0, share - used) + " of " + share + " left");
                }
            }
            return new Admission.Refused(Duration.ofMillis(windowMs), "token share spent (redis unreachable)");
        }

        synchronized void settle(String id, long actual) {
            for (Object[] e : log) {
                if (e[0].equals(id)) {
                    e[1] = Math.max((long) e[1], System.currentTimeMillis()); // re-stamped, as in Redis
                    e[2] = actual;
                    return;
                }
            }
        }

        synchronized void sync(long share, long providerRemaining, long resetMs, String id) {
            long now = System.currentTimeMillis();
            long ours = share - expire(now);
            if (providerRemaining < ours) {
                log.addLast(new Object[] {id, now + Math.min(resetMs, windowMs) - windowMs, ours - providerRemaining});
            }
        }

        synchronized long used() {
            return expire(System.currentTimeMillis());
        }

        private long expire(long now) {
            log.removeIf(e -> (long) e[1] <= now - windowMs);
            long used = 0;
            for (Object[] e : log) {
                used += (long) e[2];
            }
            return used;
        }
    }
}
