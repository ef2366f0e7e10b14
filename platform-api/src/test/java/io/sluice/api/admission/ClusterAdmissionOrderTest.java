package io.sluice.api.admission;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.api.intent.Priority;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;

/**
 * Two admission instances ("two pods"), each with its own Redis client, ordered through one real Redis
 * (from {@code SLUICE_REDIS_URL}). Only the LLM call is simulated: an admitted request holds its slot for
 * {@link #SERVICE} (closed by a scheduler, not a sleep).
 */
class ClusterAdmissionOrderTest {

    static final Duration SERVICE = Duration.ofMillis(40);
    static final int CLUSTER_CAPACITY = 2;

    final String prefix = "test:" + UUID.randomUUID() + ":admission:";
    final List<RedissonClient> clients = new ArrayList<>();
    final List<PriorityAdmission> instances = new ArrayList<>();
    final ExecutorService threads = Executors.newCachedThreadPool();
    final ScheduledExecutorService service = Executors.newScheduledThreadPool(4);
    final AtomicInteger inFlight = new AtomicInteger();
    final AtomicInteger maxInFlight = new AtomicInteger();
    final List<Priority> admissionOrder = new CopyOnWriteArrayList<>();

    @AfterEach
    void stop() {
        threads.shutdownNow();
        service.shutdownNow();
        instances.forEach(PriorityAdmission::close);
        for (RedissonClient client : clients) {
            if (!client.isShutdown()) {
                client.getKeys().deleteByPattern(prefix + "*");
                client.shutdown();
            }
        }
    }

    static RedissonClient redisson() {
        String url = System.getenv("SLUICE_REDIS_URL");
        if (url == null || url.isBlank()) {
            throw new IllegalStateException("SLUICE_REDIS_URL is not set: run `eval \"$(scripts/services-up.sh)\"` first");
        }
        return Redisson.create(io.sluice.governance.cluster.RedisTopology.ofUrl(url).toConfig(3_000, 2_000, 0));
    }

    /** An instance with local capacity 2; waits are long enough that nobody is declined. */
    record Instance(PriorityAdmission admission, RedissonClient redis, SimpleMeterRegistry meters) {
    }

    Instance instance(Duration lease) {
        RedissonClient client = redisson();
        clients.add(client);
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        AdmissionProperties local = new AdmissionProperties(2, null, 0.5, Duration.ofSeconds(1),
            Map.of(Priority.S, Duration.ofSeconds(20), Priority.A, Duration.ofSeconds(20), Priority.B, Duration.ofSeconds(20)),
            Map.of(Priority.B, 0.0), Duration.ofMillis(40), 0.2);
        ClusterAdmissionProperties cluster = new ClusterAdmissionProperties(true, prefix, CLUSTER_CAPACITY,
            Duration.ofMillis(10), lease, Duration.ofSeconds(30));
        PriorityAdmission admission = new PriorityAdmission(local,
            new RedisClusterOrder(client, cluster, () -> CLUSTER_CAPACITY, local.capacity(), meters));
        instances.add(admission);
        return new Instance(admission, client, meters);
    }

    /** Offers a request once {@code start} opens; once admitted it holds the slot for SERVICE. Returns its wait. */
    Future<Long> offer(PriorityAdmission admission, Priority priority, CountDownLatch start) {
        return threads.submit(() -> {
            start.await();
            PriorityAdmission.Ticket ticket = admission.admit(priority, false, PriorityAdmission.QueueListener.NONE);
            assertThat(ticket).isInstanceOf(PriorityAdmission.Admitted.class);
            admissionOrder.add(priority);
            maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            service.schedule(() -> {
                inFlight.decrementAndGet();
                ticket.close();
            }, SERVICE.toMillis(), TimeUnit.MILLISECONDS);
            return ticket.waitedMs();
        });
    }

    static long p95(List<Future<Long>> waits) throws Exception {
        List<Long> sorted = new ArrayList<>();
        for (Future<Long> wait : waits) {
            sorted.add(wait.get(30, TimeUnit.SECONDS));
        }
        sorted.sort(Long::compare);
        return sorted.get((int) Math.ceil(0.95 * sorted.size()) - 1);
    }

    @Test
    void urgentRequestsOnOneInstanceGoBeforeLaneBOnAnotherAndTheClusterNeverExceedsItsCapacity() throws Exception {
        Instance one = instance(Duration.ofSeconds(3));
        Instance two = instance(Duration.ofSeconds(3));
        CountDownLatch start = new CountDownLatch(1);
        List<Future<Long>> s = new ArrayList<>();
        List<Future<Long>> b = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            s.add(offer(one.admission(), Priority.S, start));
            b.add(offer(two.admission(), Priority.B, start));
        }

        start.countDown();
        long sP95 = p95(s);
        long bP95 = p95(b);

        long overtaking = admissionOrder.subList(0, admissionOrder.lastIndexOf(Priority.S)).stream()
            .filter(Priority.B::equals).count();
        System.out.printf("cluster order: S p95 wait %d ms (instance 1), B p95 wait %d ms (instance 2), max in flight %d,"
            + " B admitted before the last S %d, order %s%n", sP95, bP95, maxInFlight.get(), overtaking, admissionOrder);
        assertThat(sP95).as("S on instance 1 is served before B on instance 2").isLessThan(bP95);
        assertThat(overtaking).as("only B requests that found a free slot before the S requests were announced")
            .isLessThanOrEqualTo(CLUSTER_CAPACITY);
        assertThat(maxInFlight.get()).as("one capacity for both instances").isLessThanOrEqualTo(CLUSTER_CAPACITY);
        assertThat(two.meters().get("sluice.admission.cluster").tag("result", "held").counter().count())
            .as("instance 2 held its B requests back for instance 1's S requests").isPositive();
        await().atMost(Duration.ofSeconds(5)).until(() -> one.admission().inFlight() + two.admission().inFlight() == 0);
    }

    @Test
    void aCrashedInstanceStopsHoldingClusterSlotsAfterItsLease() throws Exception {
        Instance one = instance(Duration.ofMillis(300));
        Instance dying = instance(Duration.ofMillis(300));
        PriorityAdmission.Ticket first = dying.admission().admit(Priority.B, false, PriorityAdmission.QueueListener.NONE);
        PriorityAdmission.Ticket second = dying.admission().admit(Priority.B, false, PriorityAdmission.QueueListener.NONE);
        assertThat(List.of(first, second)).allMatch(PriorityAdmission.Admitted.class::isInstance);

        Future<PriorityAdmission.Ticket> waiting = threads.submit(() ->
            one.admission().admit(Priority.S, false, PriorityAdmission.QueueListener.NONE));
        await().until(() -> one.admission().queueLength() == 1);
        dying.admission().close();           // crashes holding both cluster slots: never releases, never beats
        dying.redis().shutdown();

        PriorityAdmission.Ticket ticket = waiting.get(10, TimeUnit.SECONDS);
        assertThat(ticket).isInstanceOf(PriorityAdmission.Admitted.class);
        assertThat(ticket.waitedMs()).as("admitted only once the dead instance's lease ran out").isGreaterThanOrEqualTo(100);
    }

    @Test
    void withRedisGoneEachInstanceKeepsAdmittingInItsOwnPriorityOrder() throws Exception {
        Instance alone = instance(Duration.ofSeconds(3));
        alone.redis().shutdown();            // Redis unreachable for this instance

        PriorityAdmission.Ticket a = alone.admission().admit(Priority.B, false, PriorityAdmission.QueueListener.NONE);
        PriorityAdmission.Ticket b = alone.admission().admit(Priority.B, false, PriorityAdmission.QueueListener.NONE);
        assertThat(List.of(a, b)).allMatch(PriorityAdmission.Admitted.class::isInstance);
        List<Priority> served = new CopyOnWriteArrayList<>();
        Future<?> lateB = threads.submit(() -> serve(alone.admission(), Priority.B, served));
        await().until(() -> alone.admission().queueLength() == 1);
        Future<?> lateS = threads.submit(() -> serve(alone.admission(), Priority.S, served));
        await().until(() -> alone.admission().queueLength() == 2);

        a.close();
        lateS.get(10, TimeUnit.SECONDS);
        b.close();
        lateB.get(10, TimeUnit.SECONDS);

        assertThat(served).containsExactly(Priority.S, Priority.B);
        assertThat(alone.meters().get("sluice.admission.cluster").tag("result", "local").counter().count()).isPositive();
        assertThat(alone.meters().get("sluice.admission.cluster.redis").gauge().value()).isZero();
        await().atMost(Duration.ofSeconds(5)).until(() -> alone.admission().inFlight() == 0);
    }

    private static void serve(PriorityAdmission admission, Priority priority, List<Priority> served) {
        PriorityAdmission.Ticket ticket = admission.admit(priority, false, PriorityAdmission.QueueListener.NONE);
        assertThat(ticket).isInstanceOf(PriorityAdmission.Admitted.class);
        served.add(priority);
        ticket.close();
    }
}
