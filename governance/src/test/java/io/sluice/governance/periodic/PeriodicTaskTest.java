package io.sluice.governance.periodic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class PeriodicTaskTest {

    @Test
    void aTickThatThrowsDoesNotStopTheNextOnes() {
        AtomicInteger ticks = new AtomicInteger();
        try (PeriodicTask task = new PeriodicTask("test-ticks", Duration.ofMillis(5), () -> {
            ticks.incrementAndGet();
            throw new IllegalStateException("a bad sample");
        })) {
            task.start();

            await().atMost(Duration.ofSeconds(5)).until(() -> ticks.get() >= 3);
        }
    }

    @Test
    void startsOnceAndStopsTicking() {
        AtomicInteger ticks = new AtomicInteger();
        PeriodicTask task = new PeriodicTask("test-ticks", Duration.ofMillis(5), ticks::incrementAndGet);

        task.start();
        task.start(); // a second start while running changes nothing
        await().atMost(Duration.ofSeconds(5)).until(() -> ticks.get() >= 2);
        assertThat(task.isRunning()).isTrue();
        task.stop();

        assertThat(task.isRunning()).isFalse();
    }

    @Test
    void refusesAPeriodThatIsNotPositive() {
        assertThatThrownBy(() -> new PeriodicTask("test-ticks", Duration.ZERO, () -> {
        })).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("test-ticks");
    }
}
