package io.sluice.api.ingress;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import org.junit.jupiter.api.Test;

/**
 * The field report: an import of 1,624 FAQ entries filled the CPU and a sequential chat client got 429 on
 * 608 of 1,249 requests, because the limiter shrank on process CPU whatever burnt it. Here background
 * threads (low priority, as the ingest pool's) keep the CPU busy beyond the CPU limit while a steady online
 * client's answers stay fast: the limiter must not refuse it once, and must not shrink.
 */
class BackgroundLoadTest {

    @Test
    void busyCpuFromBackgroundWorkGivesASteadyOnlineClientNo429() throws Exception {
        // a CPU limit far below what the burners reach, so the old rule (CPU alone shrinks) would trip at once
        RateLimitProperties.Global global = new RateLimitProperties.Global(50, 5, Duration.ofMillis(100), 6_000, 0.25,
            0.2, 0.5, 0.02, 5, 64, false, "x:", Duration.ZERO);
        LoadMonitor load = new LoadMonitor(1024, Duration.ofSeconds(30));
        AtomicBoolean burning = new AtomicBoolean(true);
        List<Thread> burners = new ArrayList<>();
        for (int i = 0; i < Math.max(2, Runtime.getRuntime().availableProcessors()); i++) {
            burners.add(Thread.ofPlatform().daemon().priority(Thread.MIN_PRIORITY).start(() -> {
                double x = 0;
                while (burning.get()) {
                    x += Math.sqrt(x + 1);   // an import's embedding work, as far as the CPU can tell
                }
            }));
        }
        double maxCpu = 0;
        int refused = 0;
        try (GlobalLimiter limiter = new GlobalLimiter(global, new RateLimitProperties.ClientShare(5, Duration.ofSeconds(5)),
                load, new SimpleMeterRegistry())) {
            limiter.start();
            for (int request = 0; request < 200; request++) {
                if (!limiter.admit("client-1").admitted()) {
                    refused++;
                }
                load.record(40, false); // the online answer came back fast
                maxCpu = Math.max(maxCpu, processCpu());
                LockSupport.parkNanos(Duration.ofMillis(25).toNanos()); // the client's pace: 40 req/s, under the rate
            }
            assertThat(limiter.rate()).as("the rate did not shrink").isEqualTo(50);
        } finally {
            burning.set(false);
            for (Thread t : burners) {
                t.join();
            }
        }
        assertThat(maxCpu).as("the background work really filled the CPU past the limit").isGreaterThan(0.2);
        assertThat(refused).as("429s for the steady online client").isZero();
    }

    private static double processCpu() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
            ? Math.max(0, os.getProcessCpuLoad()) : 0;
    }
}
