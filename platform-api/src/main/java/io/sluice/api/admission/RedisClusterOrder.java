package io.sluice.api.admission;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.sluice.governance.cluster.RedisGuard;

import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * {@link ClusterOrder} in Redis: every instance's waiters in one sorted set, so a freed slot goes to the
 * cluster's most urgent waiter, not to whichever instance asks first.
 *
 * <p>Keys (prefix {@code sluice.chat.admission.cluster.key-prefix}): {@code order} (sorted set, member
 * {@code instance:seq}, score = virtual deadline in Redis server milliseconds: {@code now + weight ×
 * aging quantum}, so all instances share one clock), {@code expiry} (the same members scored by the end
 * of their bounded wait: a waiter is never remembered longer than it can wait), and three hashes per
 * instance — {@code inflight} (its answers in flight), {@code room} (its free local slots) and
 * {@code beat} (Redis time of its last call). An instance silent for {@code lease} is dropped from all
 * three, so a crashed instance neither holds slots nor blocks others beyond the lease.
 *
 * <p>One Lua script per decision, atomic: free = cluster capacity − Σ in flight of live instances;
 * ahead = the waiters of other instances more urgent than this instance's most urgent one, counting per
 * instance at most its free local slots (a waiter whose own instance is full cannot take a cluster
 * slot, so it must not keep one idle). The instance may grant one waiter if ahead &lt; free; the script
 * then counts that slot in flight at once, so two instances cannot both take the last slot.
 *
 * <p>Redis trouble (through {@link RedisGuard}: one timeout, then skipped for {@code redis-retry-after})
 * answers yes everywhere: each instance falls back to its local order; never fail closed.
 */
public class RedisClusterOrder implements ClusterOrder {

    static final String SCRIPT = """
        local mode, inst, member = ARGV[1], ARGV[2], ARGV[3]
        if mode == 'leave' then
          redis.call('ZREM', KEYS[1], member)
          redis.call('ZREM', KEYS[2], member)
          return {0, 0}
        end
        local inflight, room = tonumber(ARGV[4]), tonumber(ARGV[5])
        local capacity, lease = tonumber(ARGV[6]), tonumber(ARGV[7])
        local t = redis.call('TIME')
        local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
        redis.call('HSET', KEYS[3], inst, inflight)
        redis.call('HSET', KEYS[4], inst, room)
        redis.call('HSET', KEYS[5], inst, now)
        for i = 1, 5 do redis.call('PEXPIRE', KEYS[i], 60000 + lease) end
        if mode == 'beat' then return {0, 0} end
        local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
        for _, m in ipairs(gone) do
          redis.call('ZREM', KEYS[1], m)
          redis.call('ZREM', KEYS[2], m)
        end
        local total, rooms = 0, {}
        local beats = redis.call('HGETALL', KEYS[5])
        for i = 1, #beats, 2 do
          local other = beats[i]
          if now - tonumber(beats[i + 1]) > lease then
            redis.call('HDEL', KEYS[3], other)
            redis.call('HDEL', KEYS[4], other)
            redis.call('HDEL', KEYS[5], other)
          else
            total = total + tonumber(redis.call('HGET', KEYS[3], other) or '0')
            rooms[other] = tonumber(redis.call('HGET', KEYS[4], other) or '0')
          end
        end
        local score = tonumber(ARGV[8])
        if mode == 'arrive' then score = now + score end
        local ahead = 0
        if mode == 'arrive' or ARGV[8] ~= 'none' then
          local counted = {}
          for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', '(' .. score)) do
            local other = string.match(m, '^([^:]+):')
            if other ~= inst and rooms[other] then
              local n = counted[other] or 0
              if n < rooms[other] then
                counted[other] = n + 1
                ahead = ahead + 1
              end
            end
          end
        end
        local clear = ahead < capacity - total
        if mode == 'arrive' and not (ARGV[10] == '1' and clear) then
          redis.call('ZADD', KEYS[1], score, member)
          redis.call('ZADD', KEYS[2], now + tonumber(ARGV[9]), member)
          return {0, score}
        end
        if not clear then return {0, 0} end
        redis.call('HSET', KEYS[3], inst, inflight + 1)
        redis.call('HSET', KEYS[4], inst, math.max(0, room - 1))
        redis.call('ZREM', KEYS[1], member)
        redis.call('ZREM', KEYS[2], member)
        return {1, score or 0}
        """;

    private final RedissonClient redisson;
    private final ClusterAdmissionProperties properties;
    private final IntSupplier clusterCapacity;
    private final int localCapacity;
    private final RedisGuard guard;
    private final String instance = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private final List<Object> keys;
    private final Counter granted;
    private final Counter held;
    private final Counter fallback;
    private final AtomicInteger redisUp = new AtomicInteger(1);
    private volatile int capacity;
    private volatile long capacityReadAt;

    /**
     * @param clusterCapacity answers in flight the whole cluster may have (the interactive lane's
     *                        permits); read at most once a second
     * @param localCapacity   this instance's own limit ({@code sluice.chat.admission.capacity})
     */
    public RedisClusterOrder(RedissonClient redisson, ClusterAdmissionProperties properties, IntSupplier clusterCapacity,
            int localCapacity, MeterRegistry meters) {
        this.redisson = redisson;
        this.properties = properties;
        this.clusterCapacity = clusterCapacity;
        this.localCapacity = localCapacity;
        this.guard = new RedisGuard(properties.redisRetryAfter());
        String p = properties.keyPrefix();
        // one hash tag: the script touches all five together, so they must share a Redis Cluster slot
        String t = p + "{admission}:";
        this.keys = List.of(t + "order", t + "expiry", t + "inflight", t + "room", t + "beat");
        this.granted = Counter.builder("sluice.admission.cluster").tag("result", "granted")
            .description("cluster-order decisions: a slot given, held back for a more urgent waiter elsewhere,"
                + " or decided locally because Redis was unavailable").register(meters);
        this.held = Counter.builder("sluice.admission.cluster").tag("result", "held").register(meters);
        this.fallback = Counter.builder("sluice.admission.cluster").tag("result", "local").register(meters);
        Gauge.builder("sluice.admission.cluster.redis", redisUp, AtomicInteger::get)
            .description("1 while the cluster admission order is in Redis, 0 while each instance orders alone")
            .register(meters);
    }

    /** This instance's id in the member names. */
    public String instance() {
        return instance;
    }

    @Override
    public boolean local() {
        return false;
    }

    @Override
    public Arrival arrive(String id, long offsetMs, long ttlMs, int localInFlight, boolean tryNow) {
        return guard.call(() -> {
            List<Object> r = eval("arrive", id, localInFlight, Long.toString(offsetMs), Long.toString(ttlMs),
                tryNow ? "1" : "0");
            boolean admitted = number(r, 0) == 1;
            (admitted ? granted : held).increment();
            return admitted ? new Arrival(true, UNKNOWN) : new Arrival(false, number(r, 1));
        }, () -> {
            fallback.increment();
            redisUp.set(0);
            return new Arrival(tryNow, UNKNOWN);
        });
    }

    @Override
    public boolean tryGrant(String id, long minScore, int localInFlight) {
        return guard.call(() -> {
            boolean clear = number(eval("try", id, localInFlight, minScore == UNKNOWN ? "none" : Long.toString(minScore),
                "0", "0"), 0) == 1;
            (clear ? granted : held).increment();
            return clear;
        }, () -> {
            fallback.increment();
            redisUp.set(0);
            return true;
        });
    }

    @Override
    public void leave(String id) {
        guard.run(() -> eval("leave", id, -1, "0", "0", "0"), () -> redisUp.set(0));
    }

    @Override
    public void beat(int localInFlight) {
        guard.run(() -> eval("beat", "", localInFlight, "0", "0", "0"), () -> redisUp.set(0));
    }

    @Override
    public Duration pollInterval() {
        return properties.pollInterval();
    }

    @Override
    public Duration beatInterval() {
        return properties.lease().dividedBy(3);
    }

    private List<Object> eval(String mode, String member, int localInFlight, String score, String ttl, String tryNow) {
        int inFlight = Math.max(0, localInFlight);
        List<Object> result = redisson.getScript(StringCodec.INSTANCE).eval(RScript.Mode.READ_WRITE, SCRIPT,
            RScript.ReturnType.MULTI, keys, mode, instance, instance + ":" + member, Integer.toString(inFlight),
            Integer.toString(Math.max(0, localCapacity - inFlight)), Integer.toString(capacity()),
            Long.toString(properties.lease().toMillis()), score, ttl, tryNow);
        redisUp.set(1);
        return result;
    }

    private int capacity() {
        long now = System.nanoTime();
        if (capacity == 0 || now - capacityReadAt > 1_000_000_000L) {
            capacity = Math.max(1, clusterCapacity.getAsInt());
            capacityReadAt = now;
        }
        return capacity;
    }

    private static long number(List<Object> result, int index) {
        return ((Number) result.get(index)).longValue();
    }
}
