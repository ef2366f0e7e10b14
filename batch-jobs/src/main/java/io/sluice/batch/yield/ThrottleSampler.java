package io.sluice.batch.yield;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/** Feeds interactive occupancy samples into the throttle on a fixed interval (one daemon thread). */
public class ThrottleSampler implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ThrottleSampler.class);

    private final BatchLaneThrottle throttle;
    private final InteractiveOccupancy occupancy;
    private final Duration interval;
    private ScheduledExecutorService executor;

    public ThrottleSampler(BatchLaneThrottle throttle, InteractiveOccupancy occupancy, Duration interval) {
        this.throttle = throttle;
        this.occupancy = occupancy;
        this.interval = interval;
    }

    @Override
    public synchronized void start() {
        executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "batch-lane-throttle");
            t.setDaemon(true);
            return t;
        });
        executor.scheduleWithFixedDelay(this::sample, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    void sample() {
        try {
            int before = throttle.limit();
            double value = occupancy.occupancy();
            int after = throttle.adjust(value);
            if (after != before) {
                log.info("batch lane limit {} -> {} (interactive occupancy {})", before, after,
                    String.format(java.util.Locale.ROOT, "%.2f", value));
            }
        } catch (RuntimeException e) {
            log.warn("could not sample interactive occupancy: {}", e.toString());
        }
    }

    @Override
    public synchronized void stop() {
        if (executor != null) {
            executor.shutdownNow();
            executor = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return executor != null;
    }
}
