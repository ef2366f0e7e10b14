package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitLease;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.redisson.api.RPermitExpirableSemaphore;

/**
 * Permit reuse (sluice.permits.reuse-window, idle-share) against a real Redis: a permit a call gives back
 * serves the instance's next calls without a Redis round trip, yet the cluster-wide bound, crash safety and
 * the other instances' share hold as without it.
 */
class PermitReuseTest {

    private static final String LANE = "interactive";

    private final GatewayFixture fixture = new GatewayFixture();
    private final List<PermitLease> held = new ArrayList<>();

    @BeforeEach
    void reuse() {
        fixture.permitReuseWindow = Duration.ofSeconds(1);
        fixture.permitIdleShare = 0.5;
        fixture.lane(Lane.INTERACTIVE).permits = 10;
        fixture.lane(Lane.INTERACTIVE).lease = Duration.ofSeconds(5);
    }

    @AfterEach
    void close() {
        held.forEach(PermitLease::close);
        fixture.close();
    }

    @Test
    void aPermitGivenBackServesTheNextCallsOfThisInstanceWithoutRedis() {
        GatewayFixture.Instance instance = fixture.instance();
        ClusterPermits permits = instance.assembly().permits();

        for (int call = 0; call < 20; call++) {
            try (PermitLease lease = take(permits)) {
                assertThat(permits.inUse(LANE)).isEqualTo(1);
            }
        }

        assertThat(permits.reused(LANE)).isEqualTo(19);
        assertThat(permits.idle(LANE)).isEqualTo(1);
        assertThat(permits.inUse(LANE)).as("an idle permit is not in use").isZero();
        assertThat(redisAvailable(instance)).as("but it is still taken in Redis").isEqualTo(9);
    }

    @Test
    void idlePermitsGoBackToRedisWhenTheirWindowEnds() {
        GatewayFixture.Instance instance = fixture.instance();
        ClusterPermits permits = instance.assembly().permits();
        List<PermitLease> three = List.of(take(permits), take(permits), take(permits));
        three.forEach(PermitLease::close);
        assertThat(permits.idle(LANE)).isEqualTo(3);

        await().atMost(Duration.ofSeconds(5)).until(() -> permits.idle(LANE) == 0 && redisAvailable(instance) == 10);
        assertThat(permits.inUse(LANE)).isZero();
    }

    @Test
    void anInstanceKeepsAtMostItsIdleShareAndTheOthersGetTheRest() {
        GatewayFixture.Instance a = fixture.instance();
        GatewayFixture.Instance b = fixture.instance();
        List<PermitLease> all = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            all.add(take(a.assembly().permits()));
        }
        assertThat(b.assembly().permits().tryAcquire(LANE, Duration.ZERO)).as("the lane is full").isEmpty();

        all.forEach(PermitLease::close);

        assertThat(a.assembly().permits().idle(LANE)).as("half of 10 may wait idle on one instance").isEqualTo(5);
        await().atMost(Duration.ofSeconds(5)).until(() -> redisAvailable(b) == 5); // the other half went back at once
        assertThat(takeAll(b.assembly().permits())).isEqualTo(5);
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            Optional<PermitLease> lease = b.assembly().permits().tryAcquire(LANE, Duration.ZERO);
            lease.ifPresent(held::add);
            return lease.isPresent();
        });
    }

    @Test
    void theClusterBoundHoldsWithIdlePermitsOnEveryInstance() {
        GatewayFixture.Instance a = fixture.instance();
        GatewayFixture.Instance b = fixture.instance();
        // both instances keep idle permits of their own
        take(a.assembly().permits()).close();
        take(b.assembly().permits()).close();

        int taken = takeAll(a.assembly().permits()) + takeAll(b.assembly().permits());

        assertThat(taken).isEqualTo(10);
        assertThat(redisAvailable(a)).isZero();
        assertThat(a.assembly().permits().inUse(LANE)).isEqualTo(10);
    }

    @Test
    void aPermitGoesBackToRedisWhileACallerOfThisInstanceWaitsThere() throws Exception {
        GatewayFixture.Instance a = fixture.instance();
        GatewayFixture.Instance b = fixture.instance();
        for (int i = 0; i < 5; i++) {
            held.add(take(b.assembly().permits()));
        }
        List<PermitLease> onA = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            onA.add(take(a.assembly().permits()));
        }
        // a's gate has room (10), Redis has none: this caller waits in Redis
        CompletableFuture<Optional<PermitLease>> waiter = CompletableFuture.supplyAsync(
            () -> a.assembly().permits().tryAcquire(LANE, Duration.ofSeconds(10)));
        await().atMost(Duration.ofSeconds(5)).until(() -> a.assembly().permits().waitingInRedis(LANE) == 1);

        onA.get(0).close();

        Optional<PermitLease> got = waiter.get(5, TimeUnit.SECONDS);
        assertThat(got).isPresent();
        held.add(got.get());
        assertThat(a.assembly().permits().idle(LANE)).as("handed over through Redis, not kept idle").isZero();
        onA.subList(1, 5).forEach(held::add);
    }

    @Test
    void aKilledInstancesIdlePermitsComeBackAfterOneLeaseAndOneWindow() {
        fixture.lane(Lane.INTERACTIVE).lease = Duration.ofSeconds(1);
        fixture.lane(Lane.INTERACTIVE).budget = Duration.ofSeconds(1);
        GatewayFixture.Instance doomed = fixture.instance();
        GatewayFixture.Instance survivor = fixture.instance();
        List<PermitLease> five = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            five.add(take(doomed.assembly().permits()));
        }
        five.forEach(PermitLease::close);
        assertThat(doomed.assembly().permits().idle(LANE)).isEqualTo(5);
        doomed.kill(); // idle permits never go back

        assertThat(takeAll(survivor.assembly().permits())).isEqualTo(5);
        await().atMost(Duration.ofSeconds(8)).until(() -> {
            Optional<PermitLease> lease = survivor.assembly().permits().tryAcquire(LANE, Duration.ZERO);
            lease.ifPresent(held::add);
            return held.size() == 10;
        });
    }

    @Test
    void aRenewedPermitGoesBackToRedisWhenItsCallEnds() {
        GatewayFixture.Instance instance = fixture.instance();
        ClusterPermits permits = instance.assembly().permits();
        PermitLease stream = take(permits);

        assertThat(stream.renew(Duration.ofSeconds(5))).isTrue();
        stream.close();

        assertThat(permits.idle(LANE)).isZero();
        await().atMost(Duration.ofSeconds(5)).until(() -> redisAvailable(instance) == 10);
    }

    @Test
    void withoutAReuseWindowEveryCallTakesAndReturnsItsOwnPermit() {
        fixture.permitReuseWindow = Duration.ZERO;
        GatewayFixture.Instance instance = fixture.instance();
        ClusterPermits permits = instance.assembly().permits();

        take(permits).close();
        take(permits).close();

        assertThat(permits.reused(LANE)).isZero();
        assertThat(permits.idle(LANE)).isZero();
        await().atMost(Duration.ofSeconds(5)).until(() -> redisAvailable(instance) == 10);
    }

    @Test
    void gatewayCallsReuseThePermitAndTheMetricsSaySo() {
        GatewayFixture.Instance instance = fixture.instance();

        for (int i = 0; i < 5; i++) {
            assertThat(instance.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "reuse " + i, 8)))
                .isInstanceOf(LlmOutcome.Answered.class);
        }

        assertThat(instance.registry().get("sluice.gateway.permits.reused").tag("lane", LANE).functionCounter().count())
            .isEqualTo(4);
        assertThat(instance.registry().get("sluice.gateway.permits.idle").tag("lane", LANE).gauge().value()).isEqualTo(1);
        assertThat(instance.registry().get("sluice.gateway.permits.used").tag("lane", LANE).gauge().value()).isZero();
        assertThat(fixture.mock.received("reuse 4")).isEqualTo(1);
    }

    private PermitLease take(ClusterPermits permits) {
        return permits.tryAcquire(LANE, Duration.ZERO).orElseThrow(() -> new AssertionError("no permit"));
    }

    private int takeAll(ClusterPermits permits) {
        int taken = 0;
        Optional<PermitLease> lease;
        while (taken < 20 && (lease = permits.tryAcquire(LANE, Duration.ZERO)).isPresent()) {
            held.add(lease.get());
            taken++;
        }
        return taken;
    }

    private int redisAvailable(GatewayFixture.Instance instance) {
        RPermitExpirableSemaphore semaphore = instance.redisson().getPermitExpirableSemaphore(fixture.keyPrefix + "permits:" + LANE);
        return semaphore.availablePermits();
    }
}
