package io.sluice.governance.permit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.cluster.RedisTopology;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.RedissonObject;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * A permit taken by ClusterPermits' own acquire script is an ordinary permit of Redisson's semaphore: Redisson counts
 * it, renews it, releases it and takes it back when its lease ends; a caller waiting in Redis wakes when a permit is
 * released on another instance, and finds one freed without a message too (real Redis).
 */
class PermitTakeCompatibilityTest {

    private final String prefix = "sluice:test:permit-take:" + UUID.randomUUID() + ":";
    private final RedisTopology topology = RedisTopology.ofUrl(redisUrl());
    private final RedissonClient redisson = Redisson.create(topology.toConfig(5000, 3000, 1));
    private final PermitProperties properties = new PermitProperties(prefix, Map.of(
        "long", new PermitProperties.Lane(2, Duration.ofMillis(100), Duration.ofMinutes(10)),
        "short", new PermitProperties.Lane(1, Duration.ZERO, Duration.ofMillis(1500)),
        "one", new PermitProperties.Lane(1, Duration.ofSeconds(20), Duration.ofMinutes(10))));
    private final ClusterPermits permits = new ClusterPermits(redisson, properties, new RedisGuard(Duration.ofSeconds(2)), () -> 2);
    /** A second instance on the same Redis. */
    private final ClusterPermits other = new ClusterPermits(redisson, properties, new RedisGuard(Duration.ofSeconds(2)), () -> 2);

    @AfterEach
    void cleanUp() {
        permits.close();
        other.close();
        for (String lane : properties.lanes().keySet()) {
            redisson.getPermitExpirableSemaphore(prefix + lane).delete();
        }
        redisson.getKeys().deleteByPattern(prefix + "*");
        redisson.shutdown();
    }

    @Test
    void redissonCountsRenewsResizesAndReleasesAPermitTheScriptTook() {
        RPermitExpirableSemaphore semaphore = redisson.getPermitExpirableSemaphore(prefix + "long");
        PermitLease lease = permits.acquire("long");
        assertThat(lease.local()).isFalse();
        assertThat(semaphore.availablePermits()).isEqualTo(1);
        assertThat(semaphore.acquiredPermits()).isEqualTo(1);
        assertThat(semaphore.getPermits()).isEqualTo(2);
        assertThat(semaphore.getLeaseTime(lease.permitId()))
            .as("its lease as the script stored it").isBetween(Duration.ofMinutes(9).toMillis(), Duration.ofMinutes(10).toMillis());

        assertThat(lease.renew(Duration.ofMinutes(20))).as("updateLeaseTime finds the script's id").isTrue();
        assertThat(semaphore.getLeaseTime(lease.permitId())).isGreaterThan(Duration.ofMinutes(19).toMillis());

        permits.resize("long", 3);
        assertThat(semaphore.getPermits()).isEqualTo(3);
        assertThat(semaphore.availablePermits()).as("the permit in use stays taken across setPermits").isEqualTo(2);

        assertThat(semaphore.tryRelease(lease.permitId())).as("tryRelease finds the script's id").isTrue();
        assertThat(semaphore.availablePermits()).isEqualTo(3);
        lease.close(); // its own release now finds nothing: a harmless false
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            assertThat(permits.pendingReleases()).isZero();
            assertThat(semaphore.availablePermits()).isEqualTo(3);
        });
    }

    @Test
    void aPermitWhoseLeaseEndedComesBackToRedissonAndToTheScript() {
        RPermitExpirableSemaphore semaphore = redisson.getPermitExpirableSemaphore(prefix + "short");
        PermitLease crashed = permits.acquire("short"); // never released, as by an instance that died
        assertThat(semaphore.availablePermits()).isZero();
        await().atMost(Duration.ofSeconds(5)).until(() -> semaphore.availablePermits() == 1);
        crashed.close(); // frees this instance's local gate; its release finds nothing

        // a second lapsed permit, taken back by the script itself (nothing else touches the semaphore meanwhile)
        long leaseEnd = System.currentTimeMillis() + 300;
        assertThat(permits.takeNow("short", semaphore, 300)).isNotNull();
        await().atMost(Duration.ofSeconds(5)).until(() -> System.currentTimeMillis() > leaseEnd + 50);
        assertThat(redisson.getBucket(prefix + "short", StringCodec.INSTANCE).get())
            .as("no call reclaimed it yet").isEqualTo("0");
        String permitId = permits.takeNow("short", semaphore, 60_000);
        assertThat(permitId).as("the script takes back a permit whose lease ended").isNotNull();
        assertThat(semaphore.acquiredPermits()).isEqualTo(1);
        assertThat(semaphore.tryRelease(permitId)).isTrue();
        assertThat(semaphore.availablePermits()).isEqualTo(1);
    }

    @Test
    void aCallerWaitingInRedisWakesWhenAPermitIsReleasedOnAnotherInstance() throws Exception {
        String name = prefix + "one";
        PermitLease held = permits.acquire("one"); // by the script, leased for 10 minutes
        CompletableFuture<Optional<PermitLease>> waiter =
            CompletableFuture.supplyAsync(() -> other.tryAcquire("one", Duration.ofSeconds(20)));
        // the other instance waits in Redis, subscribed to the semaphore's channel as Redisson's waiters are
        await().atMost(Duration.ofSeconds(10)).until(() -> other.waitingInRedis("one") == 1 && subscribers(name) > 0);

        long released = System.nanoTime();
        held.close();
        Optional<PermitLease> woken = waiter.get(10, TimeUnit.SECONDS);
        assertThat(woken).as("the waiter got the released permit").hasValueSatisfying(lease -> assertThat(lease.local()).isFalse());
        assertThat(Duration.ofNanos(System.nanoTime() - released)).as("woken by the release, not by its 20 s bound")
            .isLessThan(Duration.ofSeconds(5));
        woken.get().close();
    }

    @Test
    void aCallerWaitingInRedisTakesAPermitFreedWithoutAMessage() throws Exception {
        String name = prefix + "one";
        PermitLease held = permits.acquire("one");
        CompletableFuture<Optional<PermitLease>> waiter =
            CompletableFuture.supplyAsync(() -> other.tryAcquire("one", Duration.ofSeconds(20)));
        await().atMost(Duration.ofSeconds(10)).until(() -> other.waitingInRedis("one") == 1);

        // freed as a lease that ended is, or as a release whose message a reconnecting subscriber missed: no message
        long freed = System.nanoTime();
        redisson.getScript(StringCodec.INSTANCE).eval(name, RScript.Mode.READ_WRITE, FREE_ONE_SILENTLY + "return 1",
            RScript.ReturnType.INTEGER, List.of(name, RedissonObject.suffixName(name, "timeout")));
        Optional<PermitLease> got = waiter.get(10, TimeUnit.SECONDS);
        assertThat(got).as("the waiter took the freed permit").hasValueSatisfying(lease -> assertThat(lease.local()).isFalse());
        assertThat(Duration.ofNanos(System.nanoTime() - freed)).as("found by trying again, not at its 20 s bound")
            .isLessThan(Duration.ofSeconds(5));
        got.get().close();
        held.close(); // its permit is gone already: a harmless false
    }

    /** Frees one taken permit of the semaphore (KEYS: its counter and its lease zset) without publishing it. */
    static final String FREE_ONE_SILENTLY = """
        local taken = redis.call('zrange', KEYS[2], 0, 0)
        redis.call('zrem', KEYS[2], taken[1])
        redis.call('incr', KEYS[1])
        """;

    /** Subscribers of the channel Redisson's semaphore waiters listen on (sharded in a Redis Cluster). */
    private long subscribers(String name) {
        String channel = RedissonObject.prefixName("redisson_sc", name);
        return topology.mode() == RedisTopology.Mode.CLUSTER
            ? redisson.getShardedTopic(channel).countSubscribers()
            : redisson.getTopic(channel).countSubscribers();
    }

    private static String redisUrl() {
        String url = System.getenv("SLUICE_REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("SLUICE_REDIS_URL is not set: this test needs a real Redis");
        }
        return url;
    }
}
