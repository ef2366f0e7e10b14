package io.sluice.api.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class AdaptiveRateTest {

    final RateLimitProperties.Global limits = RateLimitProperties.Global.perInstance(100, 10, Duration.ofSeconds(1), 5_000, 0.2,
        0.9, 0.5, 0.1, 20);
    final AdaptiveRate rate = new AdaptiveRate(limits);

    static AdaptiveRate.Signals signals(double p95, double errors, double cpu) {
        return new AdaptiveRate.Signals(p95, errors, cpu, 100);
    }

    @Test
    void shrinksFastOnAnyBadSignalAndNeverBelowTheFloor() {
        assertThat(rate.adjust(signals(8_000, 0, 0))).isEqualTo(50);
        assertThat(rate.adjust(signals(0, 0.5, 0))).isEqualTo(25);
        assertThat(rate.adjust(signals(3_000, 0, 0.95))).as("busy CPU with slowing answers").isEqualTo(12.5);
        assertThat(rate.adjust(signals(8_000, 0.5, 0.95))).isEqualTo(10);
    }

    @Test
    void cpuBurntByBackgroundWorkWhileOnlineAnswersStayFastIsNoOverload() {
        for (int i = 0; i < 30; i++) {
            assertThat(rate.adjust(signals(400, 0, 1.0))).isEqualTo(100);
        }
    }

    @Test
    void onlineRequestsQueueingForAdmissionShrinkTheRateEvenWithFewAnswers() {
        AdaptiveRate queued = new AdaptiveRate(new RateLimitProperties.Global(100, 10, Duration.ofSeconds(1), 5_000, 0.2,
            0.9, 0.5, 0.1, 20, 16, false, "x:", Duration.ZERO));
        assertThat(queued.adjust(new AdaptiveRate.Signals(0, 0, 0, 3, 17))).isEqualTo(50);
        assertThat(queued.adjust(new AdaptiveRate.Signals(0, 0, 0, 3, 16))).isEqualTo(60);
    }

    @Test
    void recoversSlowlyUpToTheMaximum() {
        rate.adjust(signals(8_000, 0, 0));
        assertThat(rate.adjust(signals(100, 0, 0.1))).isEqualTo(60);
        for (int i = 0; i < 10; i++) {
            rate.adjust(signals(100, 0, 0.1));
        }
        assertThat(rate.rate()).isEqualTo(100);
    }

    @Test
    void tooFewSamplesAreNoReasonToShrink() {
        assertThat(rate.adjust(new AdaptiveRate.Signals(60_000, 1, 1, 3))).isEqualTo(100);
    }

    @Test
    void loadMonitorReportsP95AndErrorRatio() {
        LoadMonitor monitor = new LoadMonitor(100, Duration.ofMinutes(1));
        for (int i = 1; i <= 100; i++) {
            monitor.record(i * 10L, i % 10 == 0);
        }
        LoadMonitor.Snapshot snapshot = monitor.snapshot();
        assertThat(snapshot.p95LatencyMs()).isEqualTo(950);
        assertThat(snapshot.errorRatio()).isEqualTo(0.1);
        assertThat(snapshot.samples()).isEqualTo(100);
    }
}
