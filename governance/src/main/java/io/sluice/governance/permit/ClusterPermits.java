package io.sluice.governance.permit;

import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntSupplier;

import io.sluice.governance.cluster.LuaScript;
import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.periodic.PeriodicTask;

import org.redisson.Redisson;
import org.redisson.RedissonObject;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;

/**
 * Cluster-wide concurrency permits, one leased semaphore per lane in Redis.
 *
 * <p>Leased (expirable) permits are the point: a crashed instance never releases what it took, and
 * the lease gives it back, so capacity cannot shrink for longer than one lease.
 *
 * <p>A permit a call gives back is kept by this instance for its next call while the permit's reuse
 * window lasts ({@code sluice.permits.reuse-window}, {@code idle-share}): at thousands of calls a second
 * most calls then take no Redis round trip. It stays a real leased permit all along (a crash still
 * gives it back after one lease), the cluster-wide bound is unchanged, and it goes back to Redis as
 * soon as a caller on this instance waits in Redis, it waits idle longer than {@code idle-linger}, its window
 * ends, or this instance keeps its share.
 *
 * <p>When Redis is unreachable each instance falls back to a local semaphore holding its share of
 * the lane (permits ÷ known instances, at least 1): calls still flow, the provider stays protected.
 *
 * <p>Every try for a permit in Redis runs {@link #TAKE}, our own script on the keys of Redisson's semaphore,
 * with a permit id this class chose: when its reply is lost (a client-side timeout after Redis ran it) the id is
 * known, and its release is sent until Redis has the permit back. Redisson's acquire picks the id itself and tells
 * nobody when the call fails, so such a permit stayed taken for a whole lease. A caller that waits in Redis takes by the
 * same script, tried again whenever permits come free ({@link ReleaseSignal}), for the same reason.
 */
public class ClusterPermits implements AutoCloseable {

    private final RedissonClient redisson;
    private final PermitProperties properties;
    private final RedisGuard guard;
    private final IntSupplier knownInstances;
    private final Map<String, RPermitExpirableSemaphore> semaphores = new ConcurrentHashMap<>();
    private final Map<String, LocalShare> localShares = new ConcurrentHashMap<>();
    private final Map<String, ResizableGate> gates = new ConcurrentHashMap<>();
    private final Map<String, CachedSize> sizes = new ConcurrentHashMap<>();
    private final Map<String, Reuse> reuse = new ConcurrentHashMap<>();
    private final long reuseWindowNanos;
    private final long idleLingerNanos;
    private final PeriodicTask returnExpired;
    /**
     * Releases Redis did not take (unreachable, or the command timed out) and permits of acquires whose reply was lost,
     * tried again until their lease ends.
     */
    private final Queue<PendingRelease> pendingReleases = new ConcurrentLinkedQueue<>();
    private final PeriodicTask retryReleases;
    private volatile long initialisedAtRecovery = -1;
    /** Set by {@link #close}: a permit renewed after it goes back to Redis instead of waiting idle. */
    private volatile boolean closed;
    private final LuaScript take;
    private final LuaScript renew;
    /** The command Redisson's semaphore waiters hear, read once: it is fixed for the client's life. */
    private final String publishCommand;
    private final String permitIdPrefix = HexFormat.of().toHexDigits(new SecureRandom().nextLong());
    private final AtomicLong permitCounter = new AtomicLong();

    /** How long a lane's cluster size read from Redis is trusted before it is read again. */
    private static final long SIZE_TTL_NANOS = TimeUnit.SECONDS.toNanos(1);

    public ClusterPermits(RedissonClient redisson, PermitProperties properties) {
        this(redisson, properties, new RedisGuard(Duration.ofSeconds(2)), () -> 1);
    }

    public ClusterPermits(RedissonClient redisson, PermitProperties properties, RedisGuard guard, IntSupplier knownInstances) {
        this.redisson = redisson;
        this.properties = properties;
        this.guard = guard;
        this.knownInstances = knownInstances;
        this.reuseWindowNanos = properties.reuseWindow().toNanos();
        this.take = new LuaScript(redisson, TAKE);
        this.renew = new LuaScript(redisson, RENEW);
        this.publishCommand = publishCommand(redisson);
        this.idleLingerNanos = properties.idleLinger().toNanos();
        // idle permits past their linger or window go back to Redis even when no call comes to take them
        this.returnExpired = reuseWindowNanos == 0 ? null
            : new PeriodicTask("sluice-idle-permits", Duration.ofNanos(Math.max(TimeUnit.MILLISECONDS.toNanos(25),
                Math.min(reuseWindowNanos, idleLingerNanos) / 2)), this::returnExpired);
        if (returnExpired != null) {
            returnExpired.start();
        }
        this.retryReleases = new PeriodicTask("sluice-permit-releases", RETRY_RELEASES_EVERY, this::retryReleases);
        this.retryReleases.start();
    }

    /**
     * A permit whose release did not reach Redis (or whose acquire's reply was lost), and when its lease (which gives
     * it back anyway) ends.
     */
    private record PendingRelease(RPermitExpirableSemaphore semaphore, String permitId, long leaseEndsAt) {
    }

    private static final Duration RETRY_RELEASES_EVERY = Duration.ofMillis(250);

    /**
     * Sends a permit back to Redis without waiting. A release Redis does not take (unreachable, or the command timed
     * out) is sent again by {@link #retryReleases} until the permit's lease would have ended: dropped, it left the
     * permit held in Redis for a whole lease (30 s by default), and a burst that starved the JVM of CPU left hundreds
     * of permits taken after their calls. tryRelease: a permit whose lease already ended is simply gone, not an error.
     */
    void release(String lane, RPermitExpirableSemaphore semaphore, String permitId) {
        send(pendingRelease(lane, semaphore, permitId));
    }

    private PendingRelease pendingRelease(String lane, RPermitExpirableSemaphore semaphore, String permitId) {
        return new PendingRelease(semaphore, permitId, System.nanoTime() + leaseWithWindow(properties.lane(lane)).toNanos());
    }

    /** A permit's lease in Redis: one reuse window more than the lane's, so a reused permit still has a full lease ahead. */
    private Duration leaseWithWindow(PermitProperties.Lane policy) {
        return policy.lease().plusNanos(reuseWindowNanos);
    }

    private void send(PendingRelease release) {
        guard.async(onFailure -> release.semaphore().tryReleaseAsync(release.permitId()).whenComplete((released, error) -> {
            if (error != null) {
                onFailure.accept(error);
            }
        }), () -> pendingReleases.add(release));
    }

    /** Permits whose release is waiting to be sent to Redis again. */
    public int pendingReleases() {
        return pendingReleases.size();
    }

    /** Each pending release once; what Redis still does not take waits for the next round (until its lease ends). */
    private void retryReleases() {
        for (int i = pendingReleases.size(); i > 0; i--) {
            PendingRelease pending = pendingReleases.poll();
            if (pending == null) {
                return;
            }
            if (System.nanoTime() - pending.leaseEndsAt() >= 0) {
                continue; // its lease has ended: Redis has the permit back already
            }
            send(pending);
        }
    }

    /**
     * Takes one permit of the lane, waiting at most the lane's bound.
     *
     * @throws SaturatedException when no permit frees up within the wait bound
     */
    public PermitLease acquire(String lane) {
        Duration maxWait = properties.lane(lane).maxWait();
        return tryAcquire(lane, maxWait).orElseThrow(() -> new SaturatedException(lane, maxWait));
    }

    /** Takes one permit of the lane, waiting at most {@code wait}; empty when none freed up in time. */
    public Optional<PermitLease> tryAcquire(String lane, Duration wait) {
        PermitProperties.Lane policy = properties.lane(lane);
        long started = System.nanoTime();
        // An instance never holds more than the lane's cluster size, so waiters queue locally first
        // (fair, no I/O) and at most that many contend in Redis: no thundering herd on each release.
        // the gate follows the lane's cluster size, so a resize from the console takes effect here too
        ResizableGate gate = gates.computeIfAbsent(lane, l -> new ResizableGate(policy.permits()));
        gate.resize(size(lane));
        try {
            if (!gate.tryAcquire(wait.toNanos(), TimeUnit.NANOSECONDS)) {
                return Optional.empty();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        Reuse kept = reuse(lane);
        Optional<PermitLease> reused = kept.take(gate);
        if (reused.isPresent()) {
            return reused;
        }
        long remainingMillis = Math.max(0, (wait.toNanos() - (System.nanoTime() - started)) / 1_000_000);
        Optional<PermitLease> lease;
        try {
            lease = guard.call(() -> {
                RPermitExpirableSemaphore semaphore = semaphore(lane, policy);
                String permitId;
                long acquiredAt = System.nanoTime();
                long leaseMillis = leaseWithWindow(policy).toMillis();
                try {
                    permitId = takeNow(lane, semaphore, leaseMillis);
                    if (permitId == null && remainingMillis > 0) {
                        // a caller here waits in Redis: permits closing here go back there, not to the idle ones
                        kept.waiting.incrementAndGet();
                        try {
                            permitId = takeWaiting(lane, semaphore, leaseMillis, remainingMillis, kept);
                        } finally {
                            kept.waiting.decrementAndGet();
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Optional.<PermitLease>empty();
                }
                if (permitId == null) {
                    // a Redis that restarted empty has an unsized semaphore: size it again (no-op otherwise)
                    semaphore.trySetPermits(policy.permits());
                    return Optional.<PermitLease>empty();
                }
                return Optional.of(PermitLease.clustered(lane, permitId, semaphore, guard, gate,
                    reuseWindowNanos == 0 ? null : kept.parking(acquiredAt + reuseWindowNanos),
                    id -> release(lane, semaphore, id)));
            }, () -> localShare(lane, policy).tryAcquire(lane, Duration.ofMillis(remainingMillis), gate));
        } catch (RuntimeException e) {
            gate.release();
            throw e;
        }
        if (lease.isEmpty()) {
            gate.release();
        }
        return lease;
    }

    /** The permit id of {@link #TAKE} and {@link #RENEW} as Redisson stores it: its hex in ARGV[1] as raw bytes. */
    private static final String PERMIT_ID = """
        local id = ARGV[1]:gsub('..', function(pair) return string.char(tonumber(pair, 16)) end)
        """;

    /**
     * Takes one permit of Redisson's semaphore now, without waiting: {@code KEYS} are the semaphore's counter (its name),
     * its lease zset ({@code {name}:timeout}, permit id as raw bytes → absolute lease end in ms) and the channel its
     * waiters listen on ({@code redisson_sc:{name}}); all three share the slot of {@code name} in a Redis Cluster.
     * {@code ARGV}: the permit id in hex (stored as its bytes, as Redisson's tryRelease and updateLeaseTime look it up),
     * the lease end, now (ms, this clock, as Redisson's calls pass theirs) and the publish command of Redisson's waiters.
     * Like Redisson's own acquire, permits whose lease ended come back first (a few at a time; other calls on the
     * semaphore take the rest), and the waiters hear of them. An id already there is taken, not taken twice: Redisson
     * resends a command whose reply timed out (retry-attempts), and the first send may have run.
     * Reply {1} taken, {0} none free.
     */
    private static final String TAKE = PERMIT_ID + """
        if redis.call('zscore', KEYS[2], id) then
            return {1}
        end
        local expired = redis.call('zrangebyscore', KEYS[2], 0, ARGV[3], 'limit', 0, 100)
        if #expired > 0 then
            redis.call('zrem', KEYS[2], unpack(expired))
            local available = redis.call('incrby', KEYS[1], #expired)
            if available > 0 then
                redis.call(ARGV[4], KEYS[3], available)
            end
        end
        if tonumber(redis.call('get', KEYS[1]) or '0') < 1 then
            return {0}
        end
        redis.call('decr', KEYS[1])
        redis.call('zadd', KEYS[2], ARGV[2], id)
        local ttl = redis.call('pttl', KEYS[1])
        if ttl > 0 then
            redis.call('pexpire', KEYS[2], ttl)
        end
        return {1}
        """;

    /**
     * Renews a permit whose call just ended, for this instance to keep it: {@code KEYS} and the permit id as in
     * {@link #TAKE}; {@code ARGV[2]} the new lease end (ms, this clock), {@code ARGV[3]} the publish command of
     * Redisson's waiters. A permit still taken gets the new lease end, unless no permit of the semaphore is free: then
     * callers may be waiting in Redis (another instance's too), so it is released as Redisson's release does and they
     * hear of it. Reply {1} renewed, {2} released, {0} not taken any more (its lease ended and another call's take
     * gave it back).
     */
    private static final String RENEW = PERMIT_ID + """
        if not redis.call('zscore', KEYS[2], id) then
            return {0}
        end
        if tonumber(redis.call('get', KEYS[1]) or '0') < 1 then
            redis.call('zrem', KEYS[2], id)
            local available = redis.call('incr', KEYS[1])
            redis.call(ARGV[3], KEYS[3], available)
            return {2}
        end
        redis.call('zadd', KEYS[2], ARGV[2], id)
        return {1}
        """;

    /**
     * One permit by {@link #TAKE} under an id chosen here; null when none is free. When the call fails (a timeout,
     * a lost connection) Redis may still have run it, so the id goes to the pending releases: released if Redis took
     * it, a harmless false if not. The failure then reaches the guard as before (local share). Package-private for
     * tests of the script.
     */
    String takeNow(String lane, RPermitExpirableSemaphore semaphore, long leaseMillis) {
        String permitId = newPermitId();
        String name = semaphore.getName();
        long now = System.currentTimeMillis();
        try {
            List<Long> reply = take.run(semaphoreKeys(name), permitId, now + leaseMillis, now, publishCommand);
            return reply.getFirst() == 1 ? permitId : null;
        } catch (RuntimeException e) {
            // queued, not sent now: the guard is about to treat Redis as down, and the retry comes after the acquire
            pendingReleases.add(pendingRelease(lane, semaphore, permitId));
            throw e;
        }
    }

    /** The keys {@link #TAKE} and {@link #RENEW} run on: Redisson's semaphore {@code name}, its lease zset and its channel. */
    private static List<Object> semaphoreKeys(String name) {
        return List.of(name, RedissonObject.suffixName(name, "timeout"), RedissonObject.prefixName("redisson_sc", name));
    }

    /**
     * Waits in Redis for a permit of the lane, at most {@code waitMillis}: {@link #takeNow} again each time the lane's
     * {@link ReleaseSignal} says permits came free, and at least every {@link #WAIT_RETRY_EVERY} (a missed message, a
     * lease that ended, which only a take gives back), so a try whose reply is lost is released like the first one's.
     */
    private String takeWaiting(String lane, RPermitExpirableSemaphore semaphore, long leaseMillis, long waitMillis,
            Reuse kept) throws InterruptedException {
        ReleaseSignal signal = kept.signal;
        signal.subscribe();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
        while (true) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            signal.await(Math.min(left, WAIT_RETRY_EVERY.toNanos()));
            String permitId = takeNow(lane, semaphore, leaseMillis);
            if (permitId != null) {
                return permitId;
            }
        }
    }

    /** How long a caller waiting in Redis goes at most without trying again when no release is heard of. */
    static final Duration WAIT_RETRY_EVERY = Duration.ofMillis(250);

    /**
     * A permit id as Redisson's are (16 bytes in hex): this instance's random half and a counter, so no two of its
     * calls ever share an id (TAKE treats an id already taken as its own), and two instances differ by chance of 2^-64.
     */
    private String newPermitId() {
        return permitIdPrefix + HexFormat.of().toHexDigits(permitCounter.incrementAndGet());
    }

    /** The command Redisson's semaphore waiters hear (SPUBLISH when it uses sharded pub/sub in a Redis 7 cluster). */
    private static String publishCommand(RedissonClient redisson) {
        return redisson instanceof Redisson client
            ? client.getCommandExecutor().getConnectionManager().getSubscribeService().getPublishCommand()
            : "publish";
    }

    /**
     * Permits of the lane held for calls anywhere in the cluster (this instance's share when Redis is down).
     * This instance's idle permits are not counted; another instance's are, for at most their idle linger.
     */
    public int inUse(String lane) {
        PermitProperties.Lane policy = properties.lane(lane);
        return guard.call(() -> {
            RPermitExpirableSemaphore semaphore = semaphore(lane, policy);
            return Math.max(0, semaphore.getPermits() - semaphore.availablePermits() - idle(lane));
        }, () -> localShare(lane, policy).inUse());
    }

    /** Permits of the lane this instance holds idle for its next calls. */
    public int idle(String lane) {
        Reuse kept = reuse.get(lane);
        return kept == null ? 0 : kept.idle.size();
    }

    /** Callers of this instance waiting in Redis for a permit of the lane (permits closing here go to them). */
    public int waitingInRedis(String lane) {
        Reuse kept = reuse.get(lane);
        return kept == null ? 0 : kept.waiting.get();
    }

    /** Calls of the lane that took an idle permit of this instance instead of one from Redis, since start. */
    public long reused(String lane) {
        Reuse kept = reuse.get(lane);
        return kept == null ? 0 : kept.reused.sum();
    }

    /** The lane's cluster-wide size as Redis holds it (after any resize); the configured size when Redis is down. */
    public int size(String lane) {
        PermitProperties.Lane policy = properties.lane(lane);
        long now = System.nanoTime();
        CachedSize cached = sizes.get(lane);
        if (cached != null && now - cached.readAt < SIZE_TTL_NANOS) {
            return cached.size;
        }
        int size = guard.call(() -> semaphore(lane, policy).getPermits(), policy::permits);
        int effective = size > 0 ? size : policy.permits();
        sizes.put(lane, new CachedSize(effective, now));
        return effective;
    }

    /** Resizes a lane cluster-wide (the console calls this); permits in use stay valid. */
    public void resize(String lane, int permits) {
        if (permits < 1) {
            throw new IllegalArgumentException("a lane needs at least one permit");
        }
        PermitProperties.Lane policy = properties.lane(lane);
        semaphore(lane, policy).setPermits(permits);
        sizes.remove(lane);
    }

    private record CachedSize(int size, long readAt) {
    }

    private Reuse reuse(String lane) {
        return reuse.computeIfAbsent(lane, Reuse::new);
    }

    /** Gives idle permits past their linger or window (or beyond a shrunk lane's share) back to Redis. */
    private void returnExpired() {
        long now = System.nanoTime();
        reuse.values().forEach(kept -> kept.giveBack(kept.idle.expire(now, idleLingerNanos, kept.cap()), false));
    }

    /** Gives every idle permit back to Redis and stops the timer (shutdown: the next instance should not wait a lease). */
    @Override
    public void close() {
        closed = true;
        retryReleases.close();
        if (returnExpired != null) {
            returnExpired.close();
        }
        // awaited: the Redis client may close right after this
        reuse.values().forEach(kept -> kept.giveBack(kept.idle.drain(), true));
        reuse.values().forEach(kept -> kept.signal.close());
    }

    /** One lane's idle permits on this instance, and how they are taken and parked. */
    private final class Reuse {
        final String lane;
        final IdlePermits idle = new IdlePermits();
        final AtomicInteger waiting = new AtomicInteger();
        final LongAdder reused = new LongAdder();
        /** Made with the lane (no I/O); it subscribes when a caller first waits in Redis. */
        final ReleaseSignal signal;

        Reuse(String lane) {
            this.lane = lane;
            this.signal = new ReleaseSignal(redisson, semaphoreName(lane), publishCommand, waiting);
        }

        int cap() {
            return properties.idleCap(size(lane));
        }

        Optional<PermitLease> take(Semaphore gate) {
            if (reuseWindowNanos == 0) {
                return Optional.empty();
            }
            List<IdlePermits.Idle> expired = new ArrayList<>(0);
            IdlePermits.Idle permit = idle.take(System.nanoTime(), guard.recoveries(), expired);
            giveBack(expired, false);
            if (permit == null) {
                return Optional.empty();
            }
            RPermitExpirableSemaphore semaphore = semaphores.get(lane);
            if (semaphore == null) {
                return Optional.empty(); // the semaphores were reset since it was parked: it is not a permit any more
            }
            reused.increment();
            return Optional.of(PermitLease.clustered(lane, permit.permitId(), semaphore, guard, gate, parking(permit.reusableUntil()),
                id -> release(lane, semaphore, id)));
        }

        /** What a closing lease calls: true when its permit was kept here instead of going back to Redis. */
        PermitLease.Parking parking(long reusableUntil) {
            long epoch = guard.recoveries();
            return permitId -> {
                // read by the closing call: cap() may read the lane's size from Redis, which Redisson's thread (where a
                // renewal's reply parks the permit) refuses; a reply that failed so left its permit taken until its lease ended
                int cap = cap();
                return System.nanoTime() - reusableUntil < 0 ? park(permitId, reusableUntil, epoch, cap)
                    : waiting.get() == 0 && renewAndPark(permitId, epoch, cap);
            };
        }

        /** Keeps the permit idle for this instance's next call; false when a caller here waits in Redis or {@code cap} are idle. */
        private boolean park(String permitId, long reusableUntil, long epoch, int cap) {
            long now = System.nanoTime();
            return waiting.get() == 0 && idle.park(new IdlePermits.Idle(permitId, reusableUntil, now), now, epoch, cap);
        }

        /**
         * A permit whose reuse window is over: {@link #RENEW} extends its lease by a lease and a window from now, and it
         * is parked with a new window, where a release now and a take for the next call were two scripts. Calls longer
         * than the window (most LLM calls take 1-30 s) then reuse their permits too. When no permit of the lane is free
         * in Redis the script gives it back instead, since callers may wait there. Until the script answers the permit
         * is neither idle nor free; it goes back to Redis when it cannot be parked then, and when the script fails it
         * is released like any other (again until its lease ends). True: this permit is taken care of.
         */
        private boolean renewAndPark(String permitId, long epoch, int cap) {
            RPermitExpirableSemaphore semaphore = semaphores.get(lane);
            if (semaphore == null || closed || idle.size() >= cap) {
                return false;
            }
            long leaseMillis = leaseWithWindow(properties.lane(lane)).toMillis();
            long renewedAt = System.nanoTime();
            guard.async(onFailure -> renew.callAsync(semaphoreKeys(semaphore.getName()), permitId,
                    System.currentTimeMillis() + leaseMillis, publishCommand)
                .whenComplete((reply, error) -> {
                    if (error != null) {
                        onFailure.accept(error);
                        return;
                    }
                    if (reply.getFirst() != 1) {
                        return; // given back by the script (no permit free), or its lease had ended: Redis has it
                    }
                    if (closed || !park(permitId, renewedAt + reuseWindowNanos, epoch, cap)) {
                        release(lane, semaphore, permitId);
                    }
                }), () -> pendingReleases.add(pendingRelease(lane, semaphore, permitId)));
            return true;
        }

        /** Releases {@code permits} in Redis; {@code await}: wait for each (shutdown), else do not. */
        void giveBack(List<IdlePermits.Idle> permits, boolean await) {
            RPermitExpirableSemaphore semaphore = semaphores.get(lane);
            if (semaphore == null) {
                return;
            }
            for (IdlePermits.Idle permit : permits) {
                if (await) {
                    guard.call(() -> semaphore.tryRelease(permit.permitId()), () -> false);
                    continue;
                }
                release(lane, semaphore, permit.permitId());
            }
        }
    }

    /** A local fair semaphore whose number of permits can follow the cluster size. */
    static final class ResizableGate extends Semaphore {

        private int size;

        ResizableGate(int size) {
            super(size, true);
            this.size = size;
        }

        synchronized void resize(int newSize) {
            if (newSize > size) {
                release(newSize - size);
            } else if (newSize < size) {
                reducePermits(size - newSize);
            }
            size = newSize;
        }
    }

    private RPermitExpirableSemaphore semaphore(String lane, PermitProperties.Lane policy) {
        long recoveries = guard.recoveries();
        if (recoveries != initialisedAtRecovery) {
            // after Redis came back (possibly empty), size the semaphores again
            semaphores.clear();
            initialisedAtRecovery = recoveries;
        }
        return semaphores.computeIfAbsent(lane, l -> {
            RPermitExpirableSemaphore semaphore = redisson.getPermitExpirableSemaphore(semaphoreName(l));
            // sized once per cluster; later resizing goes through resize()
            semaphore.trySetPermits(policy.permits());
            return semaphore;
        });
    }

    private String semaphoreName(String lane) {
        return properties.keyPrefix() + lane;
    }

    private LocalShare localShare(String lane, PermitProperties.Lane policy) {
        int share = Math.max(1, policy.permits() / Math.max(1, knownInstances.getAsInt()));
        return localShares.compute(lane, (l, current) -> current != null && current.size == share ? current : new LocalShare(share));
    }

    /** How long a permit lease lasts (for callers that must outlive it, such as streams). */
    public Duration lease(String lane) {
        return properties.lane(lane).lease();
    }

    private static final class LocalShare {
        final int size;
        final Semaphore semaphore;

        LocalShare(int size) {
            this.size = size;
            this.semaphore = new Semaphore(size, true);
        }

        Optional<PermitLease> tryAcquire(String lane, Duration wait, Semaphore gate) {
            try {
                if (semaphore.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                    return Optional.of(PermitLease.local(lane, semaphore, gate));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return Optional.empty();
        }

        int inUse() {
            return size - semaphore.availablePermits();
        }
    }
}
