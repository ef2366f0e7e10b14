package io.sluice.governance.periodic;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A tick on its own daemon thread, every {@code period} after the previous one ended, that can be
 * started and stopped (the shape of a {@code SmartLifecycle}'s start/stop/isRunning, to which the
 * owner delegates). A tick that throws is logged and the next one still runs: a control loop must
 * not die of one bad sample.
 */
public final class PeriodicTask implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PeriodicTask.class);

    private final String threadName;
    private final Duration initialDelay;
    private final Duration period;
    private final Runnable tick;
    private ScheduledExecutorService scheduler;

    /** Ticks every {@code period}, the first one a period after {@link #start()}. */
    public PeriodicTask(String threadName, Duration period, Runnable tick) {
        this(threadName, period, period, tick);
    }

    public PeriodicTask(String threadName, Duration initialDelay, Duration period, Runnable tick) {
        if (period.isZero() || period.isNegative()) {
            throw new IllegalArgumentException(threadName + ": the period must be positive, was " + period);
        }
        this.threadName = threadName;
        this.initialDelay = initialDelay;
        this.period = period;
        this.tick = tick;
    }

    /** Starts ticking; a second call while running does nothing. */
    public synchronized void start() {
        if (scheduler != null) {
            return;
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::tickSafely, initialDelay.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    public synchronized void stop() {
        if (scheduler != null) {
            scheduler.shutdownNow();
            scheduler = null;
        }
    }

    public synchronized boolean isRunning() {
        return scheduler != null;
    }

    @Override
    public void close() {
        stop();
    }

    private void tickSafely() {
        try {
            tick.run();
        } catch (RuntimeException e) {
            log.warn("{}: tick failed, the next one runs as planned: {}", threadName, e.toString());
        }
    }
}
