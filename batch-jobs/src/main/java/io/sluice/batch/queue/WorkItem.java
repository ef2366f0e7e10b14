package io.sluice.batch.queue;

import java.time.Instant;
import java.util.UUID;

/**
 * One row of {@code work_item} as readers see it. {@code payload} and {@code result} are JSON text;
 * {@code clientId} is the owning API client (null = internal work).
 */
public record WorkItem(
        long id,
        UUID ticket,
        String queue,
        String type,
        int priority,
        String payload,
        String idempotencyKey,
        WorkState state,
        int attempts,
        int maxAttempts,
        Instant nextAttemptAt,
        String lockedBy,
        Instant lockedUntil,
        int progress,
        String result,
        String lastError,
        Instant createdAt,
        Instant updatedAt,
        Instant completedAt,
        Long clientId) {
}
