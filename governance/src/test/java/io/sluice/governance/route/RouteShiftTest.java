package io.sluice.governance.route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

class RouteShiftTest {

    final AtomicLong now = new AtomicLong();
    final RouteShift shift = new RouteShift(RouteShift.Settings.DEFAULTS, "primary", now::get);

    void advance(Duration d) {
        now.addAndGet(d.toNanos());
    }

    @Test
    void aChangeToTheLightRouteMoves20PercentPer15Seconds() {
        assertThat(shift.pick("primary")).isEqualTo("primary");

        shift.pick("light");
        assertThat(shift.shareOf("light")).isCloseTo(0.2, within(1e-9));
        advance(Duration.ofSeconds(15));
        assertThat(shift.shareOf("light")).isCloseTo(0.4, within(1e-9));
        advance(Duration.ofSeconds(45));
        assertThat(shift.shareOf("light")).isEqualTo(1.0);
        assertThat(shift.pick("light")).isEqualTo("light");
    }

    @Test
    void theMoveBackToTheNormalRouteIsSlowerAndStartsFromWhatAlreadyMoved() {
        shift.pick("light");
        advance(Duration.ofSeconds(15)); // 40 % on light
        shift.pick("primary");           // back: 60 % already on primary, +20 % at once
        assertThat(shift.shareOf("primary")).isCloseTo(0.8, within(1e-9));
        advance(Duration.ofSeconds(15));
        assertThat(shift.shareOf("primary")).as("back steps every 45 s, not 15").isCloseTo(0.8, within(1e-9));
        advance(Duration.ofSeconds(30));
        assertThat(shift.shareOf("primary")).isEqualTo(1.0);
    }

    @Test
    void whileMovingBothRoutesAreCalled() {
        shift.pick("light");
        advance(Duration.ofSeconds(30)); // 60 % light
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            seen.add(shift.pick("light"));
        }
        assertThat(seen).containsExactlyInAnyOrder("light", "primary");
    }
}
