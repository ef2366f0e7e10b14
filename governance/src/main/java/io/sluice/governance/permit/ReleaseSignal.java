package io.sluice.governance.permit;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.redisson.RedissonObject;
import org.redisson.api.RTopic;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

/**
 * Wakes this instance's callers that wait in Redis for a permit of one lane when permits come free anywhere in the
 * cluster. Redisson's release and {@link ClusterPermits}' take script publish the number of permits now free on the
 * semaphore's channel ({@code redisson_sc:{name}}, sharded in a Redis Cluster that has sharded pub/sub), and that many
 * waiters wake (at most as many as wait), as Redisson's own semaphore waiters do. A waiter also tries again after a
 * bounded pause, so a message missed while the subscription was being made or restored costs a pause, not the wait.
 */
final class ReleaseSignal implements AutoCloseable {

    private final RTopic topic;
    private final AtomicBoolean subscribed = new AtomicBoolean();
    private final Semaphore wakeUps = new Semaphore(0);
    private final AtomicInteger waiting;
    private volatile Integer listenerId;

    /**
     * @param semaphoreName the Redisson semaphore's name
     * @param publishCommand the command the semaphore's scripts publish with ({@code PUBLISH} or {@code SPUBLISH})
     * @param waiting this instance's callers waiting in Redis for the lane
     */
    ReleaseSignal(RedissonClient redisson, String semaphoreName, String publishCommand, AtomicInteger waiting) {
        String channel = RedissonObject.prefixName("redisson_sc", semaphoreName);
        this.topic = "spublish".equalsIgnoreCase(publishCommand)
            ? redisson.getShardedTopic(channel, StringCodec.INSTANCE)
            : redisson.getTopic(channel, StringCodec.INSTANCE);
        this.waiting = waiting;
    }

    /** Subscribes once, without waiting for Redis to confirm (a waiter meanwhile relies on its bounded pause). */
    void subscribe() {
        if (subscribed.compareAndSet(false, true)) {
            topic.addListenerAsync(String.class, (channel, freed) -> wake(freed))
                .whenComplete((id, error) -> {
                    if (error != null) {
                        subscribed.set(false); // the next waiter subscribes again
                    } else {
                        listenerId = id;
                    }
                });
        }
    }

    private void wake(String freed) {
        long permits;
        try {
            permits = Long.parseLong(freed.trim());
        } catch (NumberFormatException e) {
            permits = 1;
        }
        int wake = (int) Math.min(permits, waiting.get());
        if (wake > 0) {
            wakeUps.release(wake);
        }
    }

    /** Waits for a wake-up at most {@code nanos}; true when woken (a permit may be free: try again). */
    boolean await(long nanos) throws InterruptedException {
        return wakeUps.tryAcquire(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        Integer id = listenerId;
        if (id != null) {
            topic.removeListenerAsync(id);
        }
    }
}
