package io.sluice.api.ingress;

import java.lang.management.ManagementFactory;
import java.time.Duration;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import io.sluice.governance.periodic.PeriodicTask;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * The adaptive global limiter of this instance: a local token bucket (burst = one second) whose rate
 * follows {@link AdaptiveRate}, re-evaluated every tick from the {@link LoadMonitor} (p95 latency,
 * error ratio) and the process CPU load. The rate is per instance; N instances admit N× it.
 * Gauge {@code sluice.ingress.global.rate}.
 */
public class GlobalLimiter implements SmartLifecycle, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(GlobalLimiter.class);

    private final AdaptiveRate adaptive;
    private final LoadMonitor monitor;
    private final RateLimitProperties.Global properties;
    private volatile double rate;
    private double tokens;
    private long lastNanos = System.nanoTime();
    private final PeriodicTask ticks;

    public GlobalLimiter(RateLimitProperties.Global properties, LoadMonitor monitor, MeterRegistry meters) {
        this.properties = properties;
        this.adaptive = new AdaptiveRate(properties);
        this.monitor = monitor;
        this.rate = adaptive.rate();
        this.tokens = rate;
        this.ticks = new PeriodicTask("sluice-global-limiter", properties.tick(), this::tick);
        Gauge.builder("sluice.ingress.global.rate", this, GlobalLimiter::rate)
            .description("requests/s this instance currently admits (adaptive)")
            .register(meters);
    }

    @Override
    public void start() {
        ticks.start();
    }

    @Override
    public void stop() {
        ticks.stop();
    }

    @Override
    public boolean isRunning() {
        return ticks.isRunning();
    }

    @Override
    public void close() {
        stop();
    }

    public double rate() {
        return rate;
    }

    void tick() {
        try {
            LoadMonitor.Snapshot load = monitor.snapshot();
            double before = rate;
            rate = adaptive.adjust(new AdaptiveRate.Signals(load.p95LatencyMs(), load.errorRatio(), cpuLoad(), load.samples()));
            if (rate < before * 0.999) {
                log.info("ingress: global rate {} -> {} req/s (p95 {} ms, errors {})", Math.round(before),
                    Math.round(rate), Math.round(load.p95LatencyMs()), load.errorRatio());
            }
        } catch (RuntimeException e) {
            log.warn("ingress: global limiter tick failed: {}", e.toString());
        }
    }

    /** Takes one admission; empty Duration = admitted, otherwise how long until one would be. */
    public synchronized Duration tryAcquire() {
        long now = System.nanoTime();
        double current = rate;
        tokens = Math.min(current, tokens + (now - lastNanos) / 1e9 * current);
        lastNanos = now;
        if (tokens >= 1) {
            tokens -= 1;
            return Duration.ZERO;
        }
        return Duration.ofMillis((long) Math.ceil((1 - tokens) / current * 1000));
    }

    private static double cpuLoad() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            double load = os.getProcessCpuLoad();
            return load < 0 ? 0 : load;
        }
        return 0;
    }
}
