package io.sluice.batch.queue;

import java.util.UUID;

/**
 * An item this worker holds under a lease. Finishing it (complete, fail, requeue, dead-letter) only
 * takes effect while {@code leaseToken} is still the item's token: once the lease expired and another
 * worker claimed the item, a late finish changes nothing (fencing).
 *
 * @param attempts attempts including this one
 */
public record ClaimedItem(long id, UUID ticket, String queue, String type, int priority, String payload,
        int attempts, int maxAttempts, String owner, UUID leaseToken) {

    public boolean lastAttempt() {
        return attempts >= maxAttempts;
    }
}
