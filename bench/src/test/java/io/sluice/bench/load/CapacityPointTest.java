package io.sluice.bench.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class CapacityPointTest {

    @Test
    void twoLegsReadAsOneSumTheirAnswersAndCpuAndMergeTheirLatencies() {
        CapacityBench.Leg first = leg("sluice", 20, 2_000, 800, 40, 50);
        CapacityBench.Leg second = leg("sluice", 20, 1_000, 200, 60, 70);

        CapacityBench.Leg both = CapacityBench.Leg.pooled(List.of(first, second));

        assertThat(both.answers()).isEqualTo(3_000);
        assertThat(both.seconds()).isEqualTo(40);
        assertThat(both.perSecond()).isEqualTo(75);
        // 1,000 ms of Sluice and Redis CPU for 3,000 answers, not the mean of 0.4 and 0.2
        assertThat(both.cpuMsPerAnswer(CapacityBench.SLUICE, CapacityBench.REDIS)).isCloseTo(1_000.0 / 3_000, within(1e-9));
        assertThat(both.latency().getTotalCount()).isEqualTo(3_000);
        assertThat(both.p(50)).isCloseTo(50, within(1.0));
        assertThat(both.p(99)).isCloseTo(70, within(1.0));
        // the legs themselves are left as they were
        assertThat(first.latency().getTotalCount()).isEqualTo(2_000);
    }

    @Test
    void aPointReadsEachTargetByRoundAndBothRoundsTogether() {
        CapacityBench.Leg direct1 = leg("direct", 20, 2_000, 0, 50, 50);
        CapacityBench.Leg sluice1 = leg("sluice", 20, 1_000, 500, 60, 60);
        CapacityBench.Leg sluice2 = leg("sluice", 20, 1_800, 500, 55, 55);
        CapacityBench.Leg direct2 = leg("direct", 20, 2_000, 0, 50, 50);
        CapacityBench.Point point = new CapacityBench.Point("50 ms × 128", List.of(leg("sluice", 20, 1, 1, 1, 1)),
            List.of(direct1, sluice1), List.of(sluice2, direct2), List.of(direct1, sluice1));

        assertThat(point.targets()).containsExactly("direct", "sluice");
        assertThat(point.leg("sluice", 1)).isSameAs(sluice1);
        assertThat(point.leg("sluice", 2)).isSameAs(sluice2);
        assertThat(point.pooled("sluice").perSecond() / point.pooled("direct").perSecond()).isCloseTo(0.7, within(1e-9));
    }

    @Test
    void aLegsBurstIsItsBusiestBucketOverTheMeanOneAcrossBothRounds() {
        Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(120), 2);
        // in phase: a second's 40 requests in 2 of its 10 buckets
        CapacityBench.Leg bunched = leg("sluice", 1, 40, 0, latency, new long[] {20, 20, 0, 0, 0, 0, 0, 0, 0, 0});
        CapacityBench.Leg even = leg("sluice", 1, 40, 0, latency, new long[] {4, 4, 4, 4, 4, 4, 4, 4, 4, 4});

        assertThat(bunched.burst()).isEqualTo(5.0);
        assertThat(even.burst()).isEqualTo(1.0);
        // the two legs' buckets read as one: 20 over a mean of 4
        assertThat(CapacityBench.Leg.pooled(List.of(bunched, even)).burst()).isEqualTo(5.0);
    }

    @Test
    void aPointsWarmUpEndsOnceSluiceCompilesForAHundredthOfALegOrLess() {
        // 20 s legs: 200 ms of compiling is the most that counts as settled
        assertThat(CapacityBench.compilerSettled(200, 20)).isTrue();
        assertThat(CapacityBench.compilerSettled(201, 20)).isFalse();
        assertThat(CapacityBench.compilerSettled(0, 20)).isTrue();
        // metrics that cannot be read end the warm-up after one leg rather than holding the run up
        assertThat(CapacityBench.compilerSettled(Double.NaN, 20)).isTrue();
    }

    @Test
    void aPointsWarmUpJustBeforeRoundOneIsItsLastWarmUpLeg() {
        CapacityBench.Leg early = leg("sluice", 20, 1_000, 500, 60, 60);
        CapacityBench.Leg late = leg("sluice", 20, 1_900, 400, 52, 52);
        CapacityBench.Point point = new CapacityBench.Point("50 ms × 128", List.of(early, late), List.of(late), List.of(late),
            List.of(late));

        assertThat(point.warmUp()).isSameAs(late);
    }

    /** A leg whose answers' latencies are half {@code lowMs} and half {@code highMs}. */
    private static CapacityBench.Leg leg(String target, double seconds, long answers, long cpuMs, long lowMs, long highMs) {
        Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(120), 2);
        for (long i = 0; i < answers; i++) {
            latency.recordValue(TimeUnit.MILLISECONDS.toNanos(i < answers / 2 ? lowMs : highMs));
        }
        return leg(target, seconds, answers, cpuMs, latency, new long[] {answers});
    }

    private static CapacityBench.Leg leg(String target, double seconds, long answers, long cpuMs, Histogram latency,
            long[] arrivals) {
        return new CapacityBench.Leg("50 ms × 128", target, 128, seconds, answers, 0, 0, latency,
            Map.of(CapacityBench.SLUICE, Duration.ofMillis(cpuMs)), arrivals, 0);
    }
}
