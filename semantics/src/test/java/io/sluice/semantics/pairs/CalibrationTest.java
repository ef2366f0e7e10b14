package io.sluice.semantics.pairs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/** Operating points: the lowest threshold meeting the target with a one-standard-error margin. */
class CalibrationTest {

    @Test
    void theChosenPointMeetsTheTargetWithAMarginAndANeverMetTargetNeverServes() {
        List<Calibration.Scored> scored = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            scored.add(new Calibration.Scored(0.99 - i * 0.001, true)); // 100 clean positives at the top
        }
        for (int i = 0; i < 10; i++) {
            scored.add(new Calibration.Scored(0.80 - i * 0.01, i % 2 == 0)); // a mixed band below
        }
        scored.add(new Calibration.Scored(-1, true)); // below the candidate floor: never served, still a positive
        List<Calibration.Point> curve = Calibration.curve(scored);

        Calibration.OperatingPoint l0 = Calibration.choose("L0", 0.95, curve, 5);
        assertThat(l0.serves()).isTrue();
        assertThat(l0.precision() - Math.sqrt(l0.precision() * (1 - l0.precision()) / l0.served()))
            .isGreaterThanOrEqualTo(0.95);
        assertThat(l0.recall()).isGreaterThan(100.0 / 106 - 0.05).isLessThan(1);

        Calibration.OperatingPoint never = Calibration.choose("L0", 0.95,
            Calibration.curve(List.of(new Calibration.Scored(0.9, false), new Calibration.Scored(0.8, true))), 1);
        assertThat(never.serves()).isFalse();
    }
}
