package io.sluice.batch.queue;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * Queue meters: {@code sluice.batch.queue.depth{state}} (re-read from the database at most once per
 * refresh interval, when scraped), and counters of enqueued, claimed, completed, retried, requeued
 * (saturation) and dead-lettered items.
 */
public class QueueMetrics {

    private final Counter enqueued;
    private final Counter duplicates;
    private final Counter claimed;
    private final Counter completed;
    private final Counter retried;
    private final Counter requeued;
    private final Counter deadLettered;
    private final Counter leaseLost;
    private final Counter renewed;

    private final Supplier<Map<WorkState, Long>> depthSource;
    private final long refreshNanos;
    private volatile Map<WorkState, Long> depth = new EnumMap<>(WorkState.class);
    private volatile long depthReadAt;

    public QueueMetrics(MeterRegistry registry, Supplier<Map<WorkState, Long>> depthSource, Duration refresh) {
        this.depthSource = depthSource;
        this.refreshNanos = refresh.toNanos();
        this.enqueued = counter(registry, "sluice.batch.queue.enqueued", "items enqueued");
        this.duplicates = counter(registry, "sluice.batch.queue.duplicates", "submits answered with an existing item (same idempotency key)");
        this.claimed = counter(registry, "sluice.batch.queue.claimed", "items claimed by a worker");
        this.completed = counter(registry, "sluice.batch.queue.completed", "items completed with a result");
        this.retried = counter(registry, "sluice.batch.queue.retried", "failed attempts put back with backoff");
        this.requeued = counter(registry, "sluice.batch.queue.requeued", "items put back because the batch lane was saturated (no attempt used)");
        this.deadLettered = counter(registry, "sluice.batch.queue.dead_lettered", "items moved to dead-letter");
        this.leaseLost = counter(registry, "sluice.batch.queue.lease_lost", "finishes refused because the lease had passed to another worker");
        this.renewed = counter(registry, "sluice.batch.queue.lease_renewed", "leases of held items renewed by their live worker");
        for (WorkState state : WorkState.values()) {
            Gauge.builder("sluice.batch.queue.depth", this, m -> m.depth(state))
                .description("work items by state")
                .tag("state", state.name())
                .register(registry);
        }
    }

    private static Counter counter(MeterRegistry registry, String name, String description) {
        return Counter.builder(name).description(description).register(registry);
    }

    double depth(WorkState state) {
        long now = System.nanoTime();
        if (now - depthReadAt > refreshNanos || depthReadAt == 0) {
            try {
                depth = depthSource.get();
                depthReadAt = now;
            } catch (RuntimeException e) {
                return Double.NaN;
            }
        }
        return depth.getOrDefault(state, 0L);
    }

    void enqueued() { enqueued.increment(); }
    void duplicate() { duplicates.increment(); }
    void claimed(int n) { claimed.increment(n); }
    void completed() { completed.increment(); }
    void retried() { retried.increment(); }
    void requeued() { requeued.increment(); }
    void deadLettered() { deadLettered.increment(); }
    void leaseLost() { leaseLost.increment(); }
    void renewed(int n) { renewed.increment(n); }

    public double completedCount() { return completed.count(); }
    public double deadLetteredCount() { return deadLettered.count(); }
    public double claimedCount() { return claimed.count(); }
    public double renewedCount() { return renewed.count(); }
}
