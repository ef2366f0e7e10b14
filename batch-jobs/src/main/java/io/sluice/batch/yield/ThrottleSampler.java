package io.sluice.batch.yield;

import java.time.Duration;

import io.sluice.governance.periodic.PeriodicTask;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/** Feeds interactive occupancy samples into the throttle on a fixed interval (one daemon thread). */
public class ThrottleSampler implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(ThrottleSampler.class);

    private final BatchLaneThrottle throttle;
    private final InteractiveOccupancy occupancy;
    private final PeriodicTask ticks;

    public ThrottleSampler(BatchLaneThrottle throttle, InteractiveOccupancy occupancy, Duration interval) {
        this.throttle = throttle;
        this.occupancy = occupancy;
        this.ticks = new PeriodicTask("batch-lane-throttle", Duration.ZERO, interval, this::sample);
    }

    @Override
    public void start() {
        ticks.start();
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
    public void stop() {
        ticks.stop();
    }

    @Override
    public boolean isRunning() {
        return ticks.isRunning();
    }
}
