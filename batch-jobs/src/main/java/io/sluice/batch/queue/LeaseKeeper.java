package io.sluice.batch.queue;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Renews the leases of the items a live worker holds, so a long item is not taken by another instance
 * while its worker is still working on it. Every {@code lease ÷ 3} it pushes {@code locked_until} of
 * everything the owner holds one full lease ahead ({@link WorkQueue#renew}); a worker that dies stops
 * renewing and its items come back once the last renewed lease has passed. Renewal is fenced like
 * finishing: an item whose lease already passed to another worker is no longer the owner's and is not
 * touched. One daemon thread serves every holder of this instance.
 */
public class LeaseKeeper implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaseKeeper.class);

    private final WorkQueue queue;
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "sluice-lease-keeper");
        t.setDaemon(true);
        return t;
    });

    public LeaseKeeper(WorkQueue queue) {
        this.queue = queue;
    }

    /**
     * Starts renewing everything {@code owner} holds; close the handle when the owner stops holding
     * items (the first renewal is one interval after the claim's own lease started).
     */
    public Hold hold(String owner, Duration lease) {
        long every = Math.max(1, lease.toMillis() / 3);
        ScheduledFuture<?> task = scheduler.scheduleWithFixedDelay(() -> renew(owner, lease), every, every,
            TimeUnit.MILLISECONDS);
        return () -> task.cancel(false);
    }

    private void renew(String owner, Duration lease) {
        try {
            queue.renew(owner, lease);
        } catch (RuntimeException e) {
            // the next tick tries again; should renewals keep failing, the lease ends and the item comes back
            log.warn("could not renew the leases of {}: {}", owner, e.toString());
        }
    }

    /** Stops renewing (this instance is going away: its items come back after their leases). */
    @Override
    public void close() {
        scheduler.shutdownNow();
    }

    /** Renewal of one owner's leases; closing stops it. */
    @FunctionalInterface
    public interface Hold extends AutoCloseable {
        @Override
        void close();
    }
}
