package io.sluice.governance.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import io.sluice.governance.permit.ClusterPermits;
import io.sluice.governance.permit.PermitLease;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A resize from the console reaches every instance: its reported size and its local gate follow Redis. */
class PermitResizeTest {

    private final GatewayFixture fixture = new GatewayFixture();
    private final List<PermitLease> held = new ArrayList<>();

    @AfterEach
    void close() {
        held.forEach(PermitLease::close);
        fixture.close();
    }

    @Test
    void aResizeAboveOrBelowTheConfiguredSizeTakesEffectOnEveryInstance() {
        fixture.lane(Lane.INTERACTIVE).permits = 4;
        ClusterPermits operator = fixture.instance().assembly().permits();
        ClusterPermits other = fixture.instance().assembly().permits();

        operator.resize("interactive", 6);

        await().atMost(Duration.ofSeconds(5)).until(() -> other.size("interactive") == 6);
        assertThat(takeAll(other)).isEqualTo(6);
        held.forEach(PermitLease::close);
        held.clear();

        operator.resize("interactive", 2);

        await().atMost(Duration.ofSeconds(5)).until(() -> other.size("interactive") == 2);
        assertThat(takeAll(other)).isEqualTo(2);
    }

    private int takeAll(ClusterPermits permits) {
        int taken = 0;
        Optional<PermitLease> lease;
        while (taken < 20 && (lease = permits.tryAcquire("interactive", Duration.ZERO)).isPresent()) {
            held.add(lease.get());
            taken++;
        }
        return taken;
    }
}
