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
import org.redisson.api.RFuture;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RScript;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisTimeoutException;
import org.redisson.client.codec.StringCodec;

/**
 * An acquire whose reply is lost (the client gave up after its response timeout while Redis, stalled by another
 * client's long script, ran it afterwards) leaves no permit taken: it is released within seconds, not when its
 * 10-minute lease ends (real Redis). The same holds for a take tried while the caller waits in Redis for a permit.
 */
class LostAcquireReplyTest {

    private static final String LANE = "interactive";
    private static final int PERMITS = 4;
    /** Keeps Redis busy, answering nobody, for ARGV[1] ms (DEBUG SLEEP is usually disabled). */
    private static final String STALL = """
        local started = redis.call('TIME')
        local stop = started[1] * 1000000 + started[2] + ARGV[1] * 1000
        repeat
            local now = redis.call('TIME')
        until now[1] * 1000000 + now[2] >= stop
        return 1
        """;

    private final String prefix = "sluice:test:lost-acquire-reply:" + UUID.randomUUID() + ":";
    private final RedisTopology topology = RedisTopology.ofUrl(redisUrl());
    /** The permits' client: a reply later than 200 ms is a timeout. */
    private final RedissonClient redisson = Redisson.create(topology.toConfig(5000, 200, 0));
    /** Another client, patient, that stalls Redis. */
    private final RedissonClient staller = Redisson.create(topology.toConfig(5000, 10_000, 0));
    private final ClusterPermits permits = new ClusterPermits(redisson,
        new PermitProperties(prefix, Map.of(LANE, new PermitProperties.Lane(PERMITS, Duration.ofMillis(100),
            Duration.ofMinutes(10)))), new RedisGuard(Duration.ofSeconds(5)), () -> 1);

    @AfterEach
    void cleanUp() {
        permits.close();
        staller.getPermitExpirableSemaphore(prefix + LANE).delete();
        staller.getKeys().deleteByPattern(prefix + "*");
        redisson.shutdown();
        staller.shutdown();
    }

    @Test
    void anAcquireWhoseReplyIsLostIsReleasedLongBeforeItsLease() throws Exception {
        String name = prefix + LANE;
        RPermitExpirableSemaphore semaphore = staller.getPermitExpirableSemaphore(name);
        permits.acquire(LANE).close(); // the lane sized in Redis, the script loaded
        await().atMost(Duration.ofSeconds(5)).until(() -> semaphore.availablePermits() == PERMITS);
        permits.size(LANE); // read now: the acquire below sends nothing before its own command

        // the key routes the stall to the semaphore's node in a Redis Cluster
        RFuture<Long> stall = staller.getScript(StringCodec.INSTANCE).evalAsync(name, RScript.Mode.READ_WRITE, STALL,
            RScript.ReturnType.INTEGER, List.of(name), "1200");
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).until(() -> stalled(name));

        Optional<PermitLease> lease = permits.tryAcquire(LANE, Duration.ZERO);
        assertThat(lease).as("the acquire timed out: the call got the local share")
            .hasValueSatisfying(local -> assertThat(local.local()).isTrue());
        lease.get().close();

        stall.toCompletableFuture().get(10, TimeUnit.SECONDS);
        // read well inside the guard's 5 s window (a busy machine is slow), before any release is sent again
        await().atMost(Duration.ofSeconds(3)).until(() -> semaphore.availablePermits() == PERMITS - 1);

        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(semaphore.availablePermits())
                .as("the permit Redis took for the lost reply is back, long before its 10-minute lease").isEqualTo(PERMITS);
            assertThat(permits.pendingReleases()).isZero();
        });
        assertThat(permits.inUse(LANE)).isZero();
    }

    @Test
    void aTakeWhileWaitingInRedisWhoseReplyIsLostIsReleasedLongBeforeItsLease() throws Exception {
        String name = prefix + LANE;
        RPermitExpirableSemaphore semaphore = staller.getPermitExpirableSemaphore(name);
        permits.acquire(LANE).close();
        await().atMost(Duration.ofSeconds(5)).until(() -> semaphore.availablePermits() == PERMITS);
        permits.size(LANE);
        for (int i = 0; i < PERMITS; i++) {
            semaphore.acquire(); // another instance holds every permit
        }
        CompletableFuture<Optional<PermitLease>> waiter =
            CompletableFuture.supplyAsync(() -> permits.tryAcquire(LANE, Duration.ofSeconds(10)));
        await().atMost(Duration.ofSeconds(5)).until(() -> permits.waitingInRedis(LANE) == 1);

        // one permit comes free (no message: the waiter finds it by trying again) and Redis stalls: the waiter's next
        // take waits behind the stall, its client gives up after 200 ms, and Redis runs it afterwards
        RFuture<Long> stall = staller.getScript(StringCodec.INSTANCE).evalAsync(name, RScript.Mode.READ_WRITE,
            FREE_ONE_THEN_STALL, RScript.ReturnType.INTEGER, List.of(name, RedissonObject.suffixName(name, "timeout")),
            "1200");
        Optional<PermitLease> lease = waiter.get(10, TimeUnit.SECONDS);
        assertThat(lease).as("the take timed out: the call got the local share")
            .hasValueSatisfying(local -> assertThat(local.local()).isTrue());
        lease.get().close();

        stall.toCompletableFuture().get(10, TimeUnit.SECONDS);
        await().atMost(Duration.ofSeconds(20)).untilAsserted(() -> {
            assertThat(semaphore.availablePermits())
                .as("the permit Redis took for the lost reply is back, long before its 10-minute lease").isEqualTo(1);
            assertThat(permits.pendingReleases()).isZero();
        });
    }

    /** Frees one taken permit (KEYS: the counter, the lease zset) without a message, then stalls as {@link #STALL}. */
    private static final String FREE_ONE_THEN_STALL = PermitTakeCompatibilityTest.FREE_ONE_SILENTLY + STALL;

    /** Whether Redis has stopped answering the permits' client (the stall runs). */
    private boolean stalled(String name) {
        try {
            redisson.getBucket("{" + name + "}:probe", StringCodec.INSTANCE).get();
            return false;
        } catch (RedisTimeoutException e) {
            return true;
        }
    }

    private static String redisUrl() {
        String url = System.getenv("SLUICE_REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("SLUICE_REDIS_URL is not set: this test needs a real Redis");
        }
        return url;
    }
}
