package io.sluice.batch.queue;

import java.util.Objects;

/**
 * What an enqueue asks for.
 *
 * @param queue          named queue (API tasks use {@link WorkQueue#DEFAULT_QUEUE})
 * @param type           task type, e.g. {@code summarize_conversation}
 * @param priority       0 (taken first) .. 9 (taken last)
 * @param payload        JSON object text
 * @param idempotencyKey null, or a key that makes a repeated submit return the existing item
 * @param maxAttempts    attempts before dead-letter; 0 = the configured default
 * @param clientId       the API client it belongs to (null = internal work); its idempotency keys are its own
 */
public record NewWorkItem(String queue, String type, int priority, String payload, String idempotencyKey,
        int maxAttempts, Long clientId) {

    /** Internal work (no owning client). */
    public NewWorkItem(String queue, String type, int priority, String payload, String idempotencyKey, int maxAttempts) {
        this(queue, type, priority, payload, idempotencyKey, maxAttempts, null);
    }

    public NewWorkItem {
        Objects.requireNonNull(queue, "queue");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(payload, "payload");
        if (priority < 0 || priority > 9) {
            throw new IllegalArgumentException("priority must be 0..9");
        }
    }

    public static NewWorkItem of(String queue, String type, String payload) {
        return new NewWorkItem(queue, type, 5, payload, null, 0);
    }

    public NewWorkItem withIdempotencyKey(String key) {
        return new NewWorkItem(queue, type, priority, payload, key, maxAttempts, clientId);
    }

    public NewWorkItem withMaxAttempts(int attempts) {
        return new NewWorkItem(queue, type, priority, payload, idempotencyKey, attempts, clientId);
    }

    public NewWorkItem withPriority(int value) {
        return new NewWorkItem(queue, type, value, payload, idempotencyKey, maxAttempts, clientId);
    }
}
