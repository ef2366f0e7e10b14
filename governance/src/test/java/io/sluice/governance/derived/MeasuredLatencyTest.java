package io.sluice.governance.derived;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class MeasuredLatencyTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private Timer timer(String lane, String model) {
        return Timer.builder("sluice.gateway.latency").tag("lane", lane).tag("model", model)
            .publishPercentileHistogram().register(registry);
    }

    @Test
    void theP99MergesEveryModelOfTheLaneAndIgnoresOtherLanes() {
        Timer primary = timer("interactive", "gpt-a");
        Timer light = timer("interactive", "gpt-b");
        for (int i = 0; i < 98; i++) {
            primary.record(Duration.ofMillis(200));
        }
        light.record(Duration.ofSeconds(3));
        light.record(Duration.ofSeconds(3));
        timer("batch", "gpt-a").record(Duration.ofSeconds(60));

        Duration p99 = MeasuredLatency.p99(registry, "interactive").orElseThrow();

        // 2 of 100 calls took 3 s: the 99th percentile lies in the bucket holding 3 s, not in the batch lane's minute
        assertThat(p99).isBetween(Duration.ofMillis(2500), Duration.ofMillis(4000));
    }

    @Test
    void tooFewCallsGiveNoMeasurement() {
        Timer t = timer("interactive", "gpt-a");
        for (int i = 0; i < MeasuredLatency.MIN_CALLS - 1; i++) {
            t.record(Duration.ofMillis(100));
        }
        assertThat(MeasuredLatency.p99(registry, "interactive")).isEmpty();
        assertThat(MeasuredLatency.p99(registry, "intent")).isEmpty();
    }
}
