package io.sluice.batch.queue;

/** Result of an enqueue: the item, and whether this call created it (false = idempotent duplicate). */
public record Enqueued(WorkItem item, boolean created) {
}
