package io.sluice.batch.jobs.drain;

import java.time.Duration;
import java.util.UUID;

import io.sluice.batch.queue.ClaimedItem;

/** What processing one item led to; the writer applies it in the chunk's transaction. */
public sealed interface DrainResult {

    ClaimedItem item();

    /** The model answered: store the summary or deferred answer and mark the item DONE. */
    record Completed(ClaimedItem item, Subject subject, String text, String model) implements DrainResult {
    }

    /** The attempt failed (gateway degraded, empty output): retry with backoff, or dead-letter when exhausted. */
    record Failed(ClaimedItem item, String reason) implements DrainResult {
    }

    /** Not attempted (batch lane saturated or yielding): back to the queue after {@code delay}, no attempt used. */
    record Requeued(ClaimedItem item, Duration delay, String reason) implements DrainResult {
    }

    /** What a result belongs to. */
    sealed interface Subject {
    }

    record ConversationSummary(UUID conversationId) implements Subject {
    }

    record DocumentSummary(long documentId) implements Subject {
    }

    record DeferredAnswer(UUID ticket, UUID conversationId, String question) implements Subject {
    }
}
