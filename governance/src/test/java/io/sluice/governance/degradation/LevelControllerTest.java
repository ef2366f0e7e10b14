package io.sluice.governance.degradation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class LevelControllerTest {

    static final DegradationSignals HEALTHY = DegradationSignals.IDLE;
    static final DegradationSignals SLOW = new DegradationSignals(5_000, 0, 0, 0);      // L1
    static final DegradationSignals FAILING = new DegradationSignals(0, 0.6, 0, 0);     // L3

    final LevelController controller =
        new LevelController(new DegradationPolicy(DegradationProperties.defaults()), Duration.ofMinutes(3));

    @Test
    void stepsDownAtOnceToTheLevelTheSignalsCallFor() {
        assertThat(controller.evaluate(FAILING, 0)).hasValueSatisfying(change -> {
            assertThat(change.from()).isEqualTo(DegradationLevel.L0);
            assertThat(change.to()).isEqualTo(DegradationLevel.L3);
            assertThat(change.reason()).contains("errors=0.60");
        });
        assertThat(controller.level()).isEqualTo(DegradationLevel.L3);
    }

    @Test
    void stepsUpOneLevelAtATimeOnlyAfterContinuousHealth() {
        controller.evaluate(FAILING, 0);

        assertThat(controller.evaluate(HEALTHY, 1_000)).isEmpty();
        assertThat(controller.evaluate(HEALTHY, 1_000 + 179_000)).isEmpty();
        assertThat(controller.evaluate(HEALTHY, 1_000 + 180_000)).map(LevelController.Change::to)
            .contains(DegradationLevel.L2);
        assertThat(controller.evaluate(HEALTHY, 1_000 + 200_000)).isEmpty();
        assertThat(controller.evaluate(HEALTHY, 1_000 + 360_000)).map(LevelController.Change::to)
            .contains(DegradationLevel.L1);
    }

    @Test
    void aRelapseRestartsTheHealthClock() {
        controller.evaluate(SLOW, 0);
        controller.evaluate(HEALTHY, 1_000);
        controller.evaluate(SLOW, 100_000);                     // still L1: the health streak is broken

        assertThat(controller.evaluate(HEALTHY, 110_000)).isEmpty();
        assertThat(controller.evaluate(HEALTHY, 200_000)).isEmpty();
        assertThat(controller.evaluate(HEALTHY, 290_000)).map(LevelController.Change::to)
            .contains(DegradationLevel.L0);
    }

    @Test
    void staysPutWhileSignalsMatchTheLevel() {
        controller.evaluate(SLOW, 0);
        assertThat(controller.evaluate(SLOW, 1_000_000)).isEmpty();
        assertThat(controller.level()).isEqualTo(DegradationLevel.L1);
    }
}
