package io.sluice.governance.permit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.sluice.governance.cluster.RedisGuard;
import io.sluice.governance.cluster.RedisTopology;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;

/**
 * A call that ends after its permit's reuse window (an LLM call longer than the window) renews the permit in one
 * script and leaves it for this instance's next call, instead of a release now and a take then; when no permit of
 * the lane is free in Redis it goes back there, for the callers that may wait (real Redis; also on Redis Cluster and
 * Sentinel in scripts/test-redis-topologies.sh).
 */
class PermitRenewalTest {

    private static final String LANE = "interactive";
    private static final Duration WINDOW = Duration.ofSeconds(1);
    private static final Duration LEASE = Duration.ofMinutes(10);

    private final String prefix = "sluice:test:permit-renewal:" + UUID.randomUUID() + ":";
    private final RedissonClient redisson = Redisson.create(RedisTopology.ofUrl(redisUrl()).toConfig(5000, 3000, 1));
    private final PermitProperties properties = new PermitProperties(prefix,
        Map.of(LANE, new PermitProperties.Lane(4, Duration.ofMillis(100), LEASE)), WINDOW, 1.0, Duration.ofMinutes(1));
    private final ClusterPermits permits = new ClusterPermits(redisson, properties, new RedisGuard(Duration.ofSeconds(2)), () -> 2);
    /** A second instance on the same Redis. */
    private final ClusterPermits other = new ClusterPermits(redisson, properties, new RedisGuard(Duration.ofSeconds(2)), () -> 2);
    private final RPermitExpirableSemaphore semaphore = redisson.getPermitExpirableSemaphore(prefix + LANE);
    private final List<PermitLease> held = new ArrayList<>();

    @AfterEach
    void cleanUp() {
        held.forEach(PermitLease::close);
        permits.close();
        other.close();
        semaphore.delete();
        redisson.getKeys().deleteByPattern(prefix + "*");
        redisson.shutdown();
    }

    @Test
    void aCallLongerThanTheReuseWindowLeavesItsPermitRenewedForTheNextCall() {
        PermitLease longCall = permits.acquire(LANE);
        String permitId = longCall.permitId();
        long takenAt = System.nanoTime();
        await().atMost(Duration.ofSeconds(5)).until(() -> System.nanoTime() - takenAt > WINDOW.toNanos());

        longCall.close();

        await().atMost(Duration.ofSeconds(5)).until(() -> permits.idle(LANE) == 1);
        assertThat(semaphore.availablePermits()).as("still taken in Redis, not released").isEqualTo(3);
        assertThat(semaphore.getLeaseTime(permitId)).as("a lease and a window from the renewal: more than a lease left")
            .isGreaterThan(LEASE.toMillis() + 200);

        PermitLease next = permits.acquire(LANE);
        held.add(next);
        assertThat(next.permitId()).as("the next call takes it without Redis").isEqualTo(permitId);
        assertThat(permits.reused(LANE)).isEqualTo(1);
    }

    @Test
    void whenNoPermitIsFreeInRedisAPermitPastItsWindowGoesBackForTheCallersWaitingThere() throws Exception {
        List<PermitLease> onThis = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            onThis.add(permits.acquire(LANE));
        }
        for (int i = 0; i < 2; i++) {
            held.add(other.acquire(LANE));
        }
        // the lane is full: the other instance's next caller waits in Redis
        CompletableFuture<Optional<PermitLease>> waiter = CompletableFuture.supplyAsync(
            () -> other.tryAcquire(LANE, Duration.ofSeconds(20)));
        await().atMost(Duration.ofSeconds(5)).until(() -> other.waitingInRedis(LANE) == 1);
        long takenAt = System.nanoTime();
        await().atMost(Duration.ofSeconds(5)).until(() -> System.nanoTime() - takenAt > WINDOW.toNanos());

        onThis.get(0).close();

        Optional<PermitLease> got = waiter.get(10, TimeUnit.SECONDS);
        assertThat(got).as("the waiter on the other instance got the permit").isPresent();
        held.add(got.get());
        assertThat(permits.idle(LANE)).as("given back, not kept here").isZero();
        held.add(onThis.get(1));
    }

    /**
     * Calls ending inside and after their windows, some of them streams that renewed their lease, for longer than the
     * lane's size is cached: once all have ended and the idle permits' windows are over, none is taken in Redis. A
     * renewal's reply parks its permit on Redisson's thread, which refuses a blocking command: when the lane's size had
     * to be read again there, the reply failed and its permit was neither parked nor released until its lease ended
     * (2-100 of these 2,000 calls in four of five runs, 54 after the harness's 5,000 streams).
     */
    @Test
    void manyCallsEndingInAndAfterTheirWindowsLeaveNoPermitTakenOnceTheyAreDone() throws Exception {
        String busyPrefix = prefix + "busy:";
        PermitProperties busyLane = new PermitProperties(busyPrefix,
            Map.of(LANE, new PermitProperties.Lane(300, Duration.ofSeconds(5), LEASE)), Duration.ofMillis(200), 1.0,
            Duration.ofMinutes(1));
        ClusterPermits busy = new ClusterPermits(redisson, busyLane, new RedisGuard(Duration.ofSeconds(2)), () -> 1);
        try (ExecutorService callers = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> calls = new ArrayList<>();
            for (int i = 0; i < 2_000; i++) {
                long holdMillis = (i * 37L) % 450;       // some end inside the 200 ms window, some after it
                boolean stream = i % 7 == 0;
                calls.add(callers.submit(() -> {
                    try (PermitLease lease = busy.acquire(LANE)) {
                        if (stream) {
                            lease.renew(LEASE);
                        }
                        TimeUnit.MILLISECONDS.sleep(holdMillis);
                    }
                    return null;
                }));
            }
            for (Future<?> call : calls) {
                call.get(60, TimeUnit.SECONDS);
            }
        }
        RPermitExpirableSemaphore busySemaphore = redisson.getPermitExpirableSemaphore(busyPrefix + LANE);
        try {
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(busy.idle(LANE)).as("idle permits go back after their window").isZero();
                assertThat(busySemaphore.availablePermits()).as("every permit free in Redis").isEqualTo(300);
            });
        } finally {
            busy.close();
            busySemaphore.delete();
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
