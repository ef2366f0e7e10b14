package io.sluice.batch.yield;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class BatchLaneThrottleTest {

    @Test
    void busyInteractiveLaneHalvesTheLimitDownToTheFloor() {
        BatchLaneThrottle throttle = new BatchLaneThrottle(1, 8, 0.85, 0.5);
        assertThat(throttle.limit()).isEqualTo(8);
        assertThat(throttle.adjust(0.9)).isEqualTo(4);
        assertThat(throttle.adjust(0.95)).isEqualTo(2);
        assertThat(throttle.adjust(1.0)).isEqualTo(1);
        assertThat(throttle.adjust(1.0)).isEqualTo(1);
    }

    @Test
    void quietInteractiveLaneGrowsItBackOneStepPerSampleWithHysteresis() {
        BatchLaneThrottle throttle = new BatchLaneThrottle(1, 4, 0.85, 0.5);
        throttle.adjust(0.9);
        throttle.adjust(0.9);
        assertThat(throttle.limit()).isEqualTo(1);
        assertThat(throttle.adjust(0.7)).as("between the marks: hold").isEqualTo(1);
        assertThat(throttle.adjust(0.2)).isEqualTo(2);
        assertThat(throttle.adjust(0.1)).isEqualTo(3);
        assertThat(throttle.adjust(0.0)).isEqualTo(4);
        assertThat(throttle.adjust(0.0)).isEqualTo(4);
    }

    @Test
    void unknownOccupancyKeepsTheLimit() {
        BatchLaneThrottle throttle = new BatchLaneThrottle(1, 4, 0.85, 0.5);
        throttle.adjust(0.9);
        assertThat(throttle.adjust(-1)).isEqualTo(2);
        assertThat(throttle.adjust(Double.NaN)).isEqualTo(2);
    }

    @Test
    void slotsAboveTheLimitAreRefusedUntilCallsFinish() throws InterruptedException {
        BatchLaneThrottle throttle = new BatchLaneThrottle(1, 2, 0.85, 0.5);
        assertThat(throttle.acquire(0, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(throttle.acquire(0, TimeUnit.MILLISECONDS)).isTrue();
        assertThat(throttle.acquire(0, TimeUnit.MILLISECONDS)).isFalse();
        throttle.adjust(0.99); // limit 1 while 2 are in flight: both finish, only then a new one starts
        throttle.release();
        assertThat(throttle.acquire(0, TimeUnit.MILLISECONDS)).isFalse();
        throttle.release();
        assertThat(throttle.inFlight()).isZero();
        assertThat(throttle.acquire(0, TimeUnit.MILLISECONDS)).isTrue();
    }

    @Test
    void rejectsNonsenseBounds() {
        assertThatThrownBy(() -> new BatchLaneThrottle(0, 4, 0.85, 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BatchLaneThrottle(5, 4, 0.85, 0.5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new BatchLaneThrottle(1, 4, 0.5, 0.85)).isInstanceOf(IllegalArgumentException.class);
    }
}
