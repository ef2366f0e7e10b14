package io.sluice.api.chat;

import java.util.UUID;

/**
 * Tier F0: puts a question on the durable work queue for a later answer (the batch drain answers it on
 * the batch lane). Implemented where the queue lives (the app wires batch-jobs' task service), so
 * platform-api does not depend on batch-jobs. Without a bean, nothing is deferred (F1 instead).
 */
public interface DeferredAnswers {

    /**
     * Enqueues {@code ctx}'s question (stored masked, like everything the chat stores); throws if the
     * queue cannot take it (the caller answers at F1). Idempotent per request id.
     */
    Ticket defer(ChatContext ctx);

    /**
     * @param id        the ticket (the task id)
     * @param statusUrl where the answer is fetched ({@code GET /api/v1/tasks/{id}})
     */
    record Ticket(UUID id, String statusUrl) {
    }
}
