package io.sluice.batch.tasks;

import tools.jackson.databind.JsonNode;

/**
 * A task as a client submits it.
 *
 * @param priority null = 5; 0 is taken first, 9 last
 * @param clientId the API client submitting it (null = internal); the task, its ticket and its
 *                 idempotency key are that client's alone
 */
public record TaskSubmission(String type, JsonNode payload, String idempotencyKey, Integer priority, Long clientId) {

    /** An internal submission (no owning client). */
    public TaskSubmission(String type, JsonNode payload, String idempotencyKey, Integer priority) {
        this(type, payload, idempotencyKey, priority, null);
    }
}
