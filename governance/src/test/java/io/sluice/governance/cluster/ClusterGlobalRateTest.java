package io.sluice.governance.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;

import redis.embedded.RedisServer;

/**
 * The cluster-wide global rate: two instances (each its own Redisson client, as two processes would be)
 * together never admit more than the rate plus one second's burst, whatever the topology of SLUICE_REDIS_URL
 * (the topology suites of scripts/test.sh run this on Cluster and Sentinel too); with Redis stopped each
 * keeps to its share, rate ÷ 2.
 */
class ClusterGlobalRateTest {

    private static final double RATE = 20;
    private final String prefix = "test:ingress:" + UUID.randomUUID() + ":";
    private final List<RedissonClient> clients = new ArrayList<>();
    private RedisServer throwaway;

    @AfterEach
    void close() throws IOException {
        clients.forEach(c -> c.shutdown(0, 1, java.util.concurrent.TimeUnit.SECONDS));
        if (throwaway != null && throwaway.isActive()) {
            throwaway.stop();
        }
    }

    private ClusterGlobalRate instance(String url) {
        RedissonClient redisson = Redisson.create(RedisTopology.ofUrl(url).toConfig(2_000, 500, 0));
        clients.add(redisson);
        return new ClusterGlobalRate(redisson, prefix, new RedisGuard(Duration.ofSeconds(30)), Duration.ofSeconds(30));
    }

    @Test
    void twoInstancesTogetherAdmitNoMoreThanTheClusterRate() throws Exception {
        String url = System.getenv("SLUICE_REDIS_URL");
        assertThat(url).as("SLUICE_REDIS_URL (scripts/services-up.sh)").isNotBlank();
        List<ClusterGlobalRate> instances = List.of(instance(url), instance(url));
        instances.forEach(i -> i.publish(RATE));
        assertThat(instances.get(1).publish(RATE)).isEqualTo(RATE);
        assertThat(instances.get(1).liveInstances()).isEqualTo(2);

        long started = System.nanoTime();
        int admitted = hammer(instances, Duration.ofSeconds(3));
        double seconds = (System.nanoTime() - started) / 1e9;

        // one shared bucket: the rate over the run plus one second's burst. Two per-instance buckets would admit twice that.
        assertThat(admitted).as("admitted in %.1f s by two instances", seconds).isLessThanOrEqualTo((int) Math.ceil(RATE * seconds + RATE));
        assertThat(admitted).as("the rate is used, not starved").isGreaterThanOrEqualTo((int) (RATE * 2));
        assertThat(instances).allMatch(ClusterGlobalRate::shared);
    }

    @Test
    void leasedInBatchesTwoInstancesStillAdmitNoMoreThanTheClusterRate() throws Exception {
        String url = System.getenv("SLUICE_REDIS_URL");
        assertThat(url).as("SLUICE_REDIS_URL (scripts/services-up.sh)").isNotBlank();
        double rate = 400;
        List<ClusterGlobalRate> instances = List.of(leased(url, Duration.ofMillis(50)), leased(url, Duration.ofMillis(50)));
        instances.forEach(i -> i.publish(rate));
        instances.get(0).publish(rate);
        assertThat(instances.get(0).liveInstances()).isEqualTo(2);

        long started = System.nanoTime();
        int admitted = hammer(instances, rate, Duration.ofSeconds(3));
        double seconds = (System.nanoTime() - started) / 1e9;

        // callers asking far more than the rate: leases take nothing extra from the one shared bucket
        assertThat(admitted).as("admitted in %.1f s by two instances", seconds)
            .isLessThanOrEqualTo((int) Math.ceil(rate * seconds + rate)).isGreaterThanOrEqualTo((int) (rate * 2));
    }

    @Test
    void belowTheRateALeaseServesManyAdmissionsPerRoundTrip() throws Exception {
        String url = System.getenv("SLUICE_REDIS_URL");
        assertThat(url).as("SLUICE_REDIS_URL (scripts/services-up.sh)").isNotBlank();
        double rate = 100_000;   // a bucket these callers cannot empty: every call is admitted
        List<ClusterGlobalRate> instances = List.of(leased(url, Duration.ofMillis(50)), leased(url, Duration.ofMillis(50)));
        instances.forEach(i -> i.publish(rate));

        int admitted = hammer(instances, rate, Duration.ofSeconds(2));
        long roundTrips = instances.stream().mapToLong(ClusterGlobalRate::roundTrips).sum();

        // one round trip per instance per lease period (50 ms) or per doubling of the batch, not per admission
        assertThat(admitted).isGreaterThan(1_000);
        assertThat(roundTrips).as("script calls for %s admissions", admitted).isLessThan(admitted / 10);
    }

    @Test
    void callersFindingTheLeaseUsedUpAtOnceShareOneRefill() throws Exception {
        String url = System.getenv("SLUICE_REDIS_URL");
        assertThat(url).as("SLUICE_REDIS_URL (scripts/services-up.sh)").isNotBlank();
        double rate = 10_000_000; // a bucket sixteen callers in a loop cannot empty: no refusal paces them
        ClusterGlobalRate instance = leased(url, Duration.ofMillis(50));
        instance.publish(rate);

        long started = System.nanoTime();
        int admitted = hammer(List.of(instance), rate, Duration.ofSeconds(2), 16);
        double periods = (System.nanoTime() - started) / 50e6;

        // about one refill per lease period (plus the batch's doublings at the start), whatever the number of
        // callers; a round trip for each caller that found the lease used up would be up to 16 per period
        assertThat(admitted).isGreaterThan(1_000);
        assertThat(instance.roundTrips()).as("script calls in %.0f lease periods, 16 callers, %s admitted", periods, admitted)
            .isLessThanOrEqualTo((long) (3 * periods) + 64);
    }

    private ClusterGlobalRate leased(String url, Duration lease) {
        RedissonClient redisson = Redisson.create(RedisTopology.ofUrl(url).toConfig(2_000, 500, 0));
        clients.add(redisson);
        return new ClusterGlobalRate(redisson, prefix, new RedisGuard(Duration.ofSeconds(30)), Duration.ofSeconds(30), lease);
    }

    @Test
    void withRedisStoppedEachInstanceKeepsToItsShare() throws Exception {
        throwaway = RedisServer.newRedisServer().port(freePort()).bind("127.0.0.1")
            .setting("save \"\"").setting("appendonly no").build();
        throwaway.start();
        String url = "redis://127.0.0.1:" + throwaway.ports().get(0);
        ClusterGlobalRate a = instance(url);
        ClusterGlobalRate b = instance(url);
        a.publish(RATE);
        b.publish(RATE);
        a.publish(RATE);
        assertThat(a.liveInstances()).isEqualTo(2);

        throwaway.stop();
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            a.take(RATE);
            b.take(RATE);
            return !a.shared() && !b.shared();
        });
        long started = System.nanoTime();
        int byA = hammer(List.of(a), Duration.ofSeconds(2));
        double seconds = (System.nanoTime() - started) / 1e9;
        long startedB = System.nanoTime();
        int byB = hammer(List.of(b), Duration.ofSeconds(2));
        double secondsB = (System.nanoTime() - startedB) / 1e9;

        double share = RATE / 2;
        assertThat(byA).as("instance a alone, %.1f s, share %s/s", seconds, share)
            .isPositive().isLessThanOrEqualTo((int) Math.ceil(share * seconds + share));
        assertThat(byB).isPositive().isLessThanOrEqualTo((int) Math.ceil(share * secondsB + share));
    }

    /** Callers on every instance asking as fast as they are told they may; returns the admissions. */
    private static int hammer(List<ClusterGlobalRate> instances, Duration duration) throws Exception {
        return hammer(instances, RATE, duration);
    }

    private static int hammer(List<ClusterGlobalRate> instances, double rate, Duration duration) throws Exception {
        return hammer(instances, rate, duration, 4);
    }

    private static int hammer(List<ClusterGlobalRate> instances, double rate, Duration duration, int threads)
            throws Exception {
        AtomicInteger admitted = new AtomicInteger();
        ExecutorService callers = Executors.newFixedThreadPool(threads);
        long end = System.nanoTime() + duration.toNanos();
        List<Future<?>> running = new ArrayList<>();
        for (int c = 0; c < threads; c++) {
            ClusterGlobalRate instance = instances.get(c % instances.size());
            running.add(callers.submit(() -> {
                while (System.nanoTime() < end) {
                    Duration wait = instance.take(rate);
                    if (wait.isZero()) {
                        admitted.incrementAndGet();
                    } else {
                        LockSupport.parkNanos(Math.min(wait.toNanos(), 20_000_000L)); // a caller's pacing, not a test wait
                    }
                }
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
        callers.shutdown();
        return admitted.get();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
