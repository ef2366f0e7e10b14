package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Optional;

import io.sluice.governance.permit.PermitLease;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Acceptance: a crashed instance's permits come back after one lease. */
class PermitLeaseAcceptanceTest {

    private final GatewayFixture fixture = new GatewayFixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void aKilledInstancesPermitsReturnAfterTheLease() {
        GatewayFixture.LaneSettings lane = fixture.lane(Lane.INTERACTIVE);
        lane.permits = 2;
        lane.lease = Duration.ofSeconds(1);
        lane.budget = Duration.ofSeconds(1);
        GatewayFixture.Instance doomed = fixture.instance();
        GatewayFixture.Instance survivor = fixture.instance();

        assertThat(doomed.assembly().permits().tryAcquire("interactive", Duration.ZERO)).isPresent();
        assertThat(doomed.assembly().permits().tryAcquire("interactive", Duration.ZERO)).isPresent();
        doomed.kill(); // its permits are never released

        assertThat(survivor.assembly().permits().tryAcquire("interactive", Duration.ZERO)).isEmpty();
        await().atMost(Duration.ofSeconds(5)).until(() -> takeAndRelease(survivor));
        assertThat(survivor.gateway().call(GatewayFixture.ask(Lane.INTERACTIVE, "hello", 8)))
            .isInstanceOf(LlmOutcome.Answered.class);
        await().atMost(Duration.ofSeconds(5)).until(() -> survivor.assembly().permits().inUse("interactive") == 0);
    }

    private static boolean takeAndRelease(GatewayFixture.Instance instance) {
        Optional<PermitLease> lease = instance.assembly().permits().tryAcquire("interactive", Duration.ZERO);
        lease.ifPresent(PermitLease::close);
        return lease.isPresent();
    }
}
